# A small web host: a service account and its directory, a page, a package, one line of its
# configuration (checked before it is written) and its service, restarted when that line changes.
# On a new server, `govern run --noop examples/web` shows the whole plan; then `govern run examples/web`.

user "webapp" {
  system = true
  home   = "/srv/webapp"
  shell  = "/usr/sbin/nologin"
}

file "/srv/webapp" {
  ensure = "directory"
  owner  = "webapp"
  group  = "webapp"
  mode   = "0755"
}

file "/srv/webapp/index.html" {
  ensure   = "present"
  contents = "<h1>Hello from {{fact 'hostname'}}</h1>\n"
  owner    = "webapp"
  group    = "webapp"
  mode     = "0644"
}

pkg "lighttpd" {
  ensure = "present"
}

line "lighttpd document root" {
  path     = "/etc/lighttpd/lighttpd.conf"
  line     = "server.document-root = \"/srv/webapp\""
  match    = "^server\\.document-root"
  validate = "/usr/sbin/lighttpd -tt -f %"
  after    = ["pkg:lighttpd"]
  notify   = ["service:lighttpd:restart"]
}

service "lighttpd" {
  ensure = "running"
  enable = true
  after  = ["pkg:lighttpd"]
}
