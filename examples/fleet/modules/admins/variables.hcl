variable "users" {
  type        = "map"
  description = "name = { key, shell } for each admin (data: admins/users, merged deep across levels)"
}
