# Every host. `modules` merges across levels (unique): a role adds its own to these.
modules = ["ntp", "motd", "admins"]

# Where the example writes: set to "" on real hosts.
root = "/tmp/govern-fleet"

# The time zone (layout.hcl, by the runner runners.d/timezone).
timezone = "Etc/UTC"

ntp = { servers = ["0.debian.pool.ntp.org", "1.debian.pool.ntp.org"] }
# The motd module's parameter `text`, and ntp's `servers` above: looked up as MODULE/PARAM.
motd = { text = "Managed by govern: local changes are overwritten." }

# The admins module's parameter `users`, looked up as admins/users, merged deep across levels.
admins = {
  users = {
    alice = { key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAlice alice@example.org", shell = "/bin/bash" }
    bob   = { key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBob bob@example.org", shell = "/bin/bash" }
  }
}

# The web role's sites (sites.hcl): none unless a level says so. Not under web/: that is the web
# module's parameters.
sites = {}
