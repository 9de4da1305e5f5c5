# Runs only when app.conf changed (refresh_only), like a service reload.
exec "reload demo app" {
  after        = ["file:/tmp/govern-demo/data"]
  provider     = "shell"
  command      = "date '+%F %T reloaded' >> /tmp/govern-demo/data/reloads.log"
  refresh_only = true
}

# A one-time setup step, guarded by the file it creates.
exec "/usr/bin/touch /tmp/govern-demo/data/initialized" {
  creates = "/tmp/govern-demo/data/initialized"
  after   = ["file:/tmp/govern-demo/data"]
}
