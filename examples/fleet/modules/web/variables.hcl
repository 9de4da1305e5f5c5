variable "workers" {
  type        = "number"
  default     = 2
  description = "nginx worker processes (data: web/workers)"
}
