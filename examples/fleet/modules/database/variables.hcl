variable "max_connections" {
  type        = "number"
  default     = 100
  description = "postgresql's max_connections (data: database/max_connections)"
}
