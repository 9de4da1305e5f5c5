file "{{data "root"}}/etc/motd" {
  ensure   = "present"
  owner    = "root"
  group    = "root"
  mode     = "0644"
  contents = <<-EOT
    {{fact "hostname"}}: {{text}}
  EOT
}
