# Content rendered from facts: a heredoc keeps it readable.
file "/tmp/govern-demo/motd" {
  ensure   = "present"
  owner    = "root"
  group    = "root"
  mode     = "0644"
  contents = <<-EOT
    Welcome to {{fact "hostname"}} ({{fact "os/distribution"}} {{fact "os/release"}}, {{fact "os/arch"}}).
    {{fact "cpu/count"}} CPUs. This file is managed by govern: local changes are overwritten.
  EOT
}

# A value inside a string goes through `quote`, so no fact can break out of it.
file "/tmp/govern-demo/host.conf" {
  ensure   = "present"
  owner    = "root"
  group    = "root"
  mode     = "0600"
  contents = {{quote (concat "family=" (fact "os/family"))}}
}

# A file copied from next to this state file, that notifies the command below when it changes.
file "/tmp/govern-demo/app.conf" {
  ensure = "present"
  source = "files/app.conf"
  owner  = "root"
  group  = "root"
  mode   = "0644"
  notify = ["exec:reload demo app"]
}
