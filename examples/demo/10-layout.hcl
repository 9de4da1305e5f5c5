# The built-in example: safe on any machine, everything lives under /tmp/govern-demo.
# Apply it with `bin/govern run examples/demo`; a second run changes nothing.

file "/tmp/govern-demo" {
  ensure = "directory"
  owner  = "root"
  group  = "root"
  mode   = "0755"
}

file "/tmp/govern-demo/data" {
  ensure = "directory"
  owner  = "root"
  group  = "root"
  mode   = "0750"
}
