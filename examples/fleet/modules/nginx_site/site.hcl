# One site; on web hosts, sites.hcl makes one instance per entry of the data key sites.
file "{{data "root"}}/etc/nginx/sites-enabled/{{server_name}}.conf" {
  ensure   = "present"
  owner    = "root"
  group    = "root"
  mode     = "0644"
  template = "vhost.conf"
  vars     = { server_name = {{quote server_name}}, port = {{port}}, tls = {{quote tls}} }
  after    = ["file:{{data "root"}}/etc/nginx/sites-enabled"]
  notify   = ["service:nginx:reload"]
}
