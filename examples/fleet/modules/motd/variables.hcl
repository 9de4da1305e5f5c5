variable "text" {
  type        = "string"
  description = "the message of the day (data: motd/text)"
}
