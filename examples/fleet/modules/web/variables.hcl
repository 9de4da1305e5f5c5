variable "workers" {
  type        = "number"
  default     = 2
  description = "nginx worker processes (data: web/workers)"
}

variable "api_token" {
  type        = "string"
  description = "the token the host's web application presents to its API, one per host (data: web/api_token, encrypted in data/hosts/NAME.hcl)"
}

variable "session_secret" {
  type        = "string"
  description = "the key signing the sites' sessions, shared by the web hosts (data: web/session_secret, encrypted to the group web)"
}
