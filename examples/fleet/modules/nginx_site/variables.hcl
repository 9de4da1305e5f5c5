variable "server_name" {
  type        = "string"
  pattern     = "[a-z0-9.-]+"
  description = "the name the site answers to"
}

variable "port" {
  type        = "number"
  default     = 80
  description = "the port nginx listens on"
}

variable "tls" {
  type        = "string"
  values      = ["off", "on"]
  default     = "off"
  description = "on: listen with TLS too (data: nginx_site/tls)"
}
