file "{{data "root"}}/etc/govern-admins" {
  ensure   = "present"
  owner    = "root"
  group    = "root"
  mode     = "0600"
  contents = <<-EOT
    {{#each users}}
    {{@key}} {{this.shell}} {{this.key}}
    {{/each}}
  EOT
}
