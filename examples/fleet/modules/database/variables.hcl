variable "max_connections" {
  type        = "number"
  default     = 100
  description = "postgresql's max_connections (data: database/max_connections)"
}

variable "password" {
  type        = "string"
  description = "the application's database password, one per database host (data: database/password, encrypted in data/hosts/NAME.hcl)"
}
