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
