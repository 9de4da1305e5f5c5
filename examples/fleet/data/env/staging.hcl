ntp    = { servers = ["ntp.staging.example.org"] }
motd   = { text = "STAGING: managed by govern, data may be reset at any time." }
admins = { users = { carol = { key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICarol carol@example.org", shell = "/bin/zsh" } } }
