pkg "postgresql" {
  ensure = "present"
}

file "{{data "root"}}/etc/postgresql/govern.conf" {
  ensure   = "present"
  owner    = "root"
  group    = "root"
  mode     = "0644"
  contents = "max_connections = {{max_connections}}\n"
  after    = ["file:{{data "root"}}/etc/postgresql"]
  notify   = ["service:postgresql:restart"]
}

file "{{data "root"}}/etc/postgresql" {
  ensure = "directory"
  owner  = "root"
  group  = "root"
  mode   = "0755"
}

service "postgresql" {
  ensure = "running"
  enable = true
  after  = ["pkg:postgresql"]
}

file "{{data "root"}}/etc/postgresql/app.password" {
  ensure   = "present"
  owner    = "root"
  group    = "root"
  mode     = "0600"
  contents = "{{password}}\n"
  after    = ["file:{{data "root"}}/etc/postgresql"]
}
