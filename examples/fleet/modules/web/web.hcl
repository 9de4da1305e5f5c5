pkg "nginx" {
  ensure = "present"
}

file "{{data "root"}}/etc/nginx" {
  ensure = "directory"
  owner  = "root"
  group  = "root"
  mode   = "0755"
}

file "{{data "root"}}/etc/nginx/sites-enabled" {
  ensure = "directory"
  owner  = "root"
  group  = "root"
  mode   = "0755"
}

file "{{data "root"}}/etc/nginx/conf.d-workers.conf" {
  ensure   = "present"
  owner    = "root"
  group    = "root"
  mode     = "0644"
  contents = "worker_processes {{workers}};\n"
  notify   = ["service:nginx:reload"]
}

service "nginx" {
  ensure = "running"
  enable = true
  after  = ["pkg:nginx"]
}

# Secrets from data, decrypted by the host's own key while planning: both files are sensitive (their
# contents are <sensitive> in every output) and readable by root only.
file "{{data "root"}}/etc/nginx/api-token" {
  ensure   = "present"
  owner    = "root"
  group    = "root"
  mode     = "0600"
  contents = "{{api_token}}\n"
  after    = ["file:{{data "root"}}/etc/nginx"]
}

file "{{data "root"}}/etc/nginx/session-secret" {
  ensure   = "present"
  owner    = "root"
  group    = "root"
  mode     = "0600"
  contents = "{{session_secret}}\n"
  after    = ["file:{{data "root"}}/etc/nginx"]
  notify   = ["service:nginx:reload"]
}
