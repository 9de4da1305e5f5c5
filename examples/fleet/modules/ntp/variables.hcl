variable "servers" {
  type        = "list"
  description = "the NTP servers, most preferred first (data: ntp/servers, merged across levels)"
}
