file "{{data "root"}}/etc/ntp.conf" {
  ensure   = "present"
  owner    = "root"
  group    = "root"
  mode     = "0644"
  template = "ntp.conf"
  vars     = { servers = [{{#each servers}}{{quote this}}, {{/each}}] }
}
