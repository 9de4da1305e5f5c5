pkg "redis-server" {
  ensure = "present"
}

file "{{data "root"}}/etc/redis" {
  ensure = "directory"
  owner  = "root"
  group  = "root"
  mode   = "0755"
}

file "{{data "root"}}/etc/redis/govern.conf" {
  ensure   = "present"
  owner    = "root"
  group    = "root"
  mode     = "0644"
  contents = "maxmemory {{maxmemory_mb}}mb\n"
  notify   = ["service:redis-server:restart"]
}

service "redis-server" {
  ensure = "running"
  enable = true
  after  = ["pkg:redis-server"]
}
