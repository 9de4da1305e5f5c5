variable "maxmemory_mb" {
  type        = "number"
  default     = 256
  description = "redis' maxmemory, in MiB (data: cache/maxmemory_mb)"
}
