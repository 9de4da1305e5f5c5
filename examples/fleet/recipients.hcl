# Who may read the encrypted values of data/ (docs/secrets.md). A host is named by its SSH host key
# (/etc/ssh/ssh_host_ed25519_key.pub), a person by an age key or an SSH key.
# THESE KEYS ARE FOR TESTS ONLY: their private halves are published in test-keys/. On a real fleet,
# put the hosts' own host keys and your admins' keys here, then `govern secret rekey`.
hosts = {
  web1 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMY6CrFCIe7TOCLa1JMUUB3Hq1DQ7aql7lq+5hF7WFZ5"
  web2 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOAfo+CCe8tYx33YR2+VSWRJjaFbu5CfI+hrXCgXE8nG"
  db1  = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBCcZZpUYiwQoZ0rafwcFBUckB4rDJu43/vT1JDyB0SD"
}
people = {
  admin = "age1ma8dy06gcj5ne9gvdsqgt7zmqczlu2dx6q8p9n2879dsg3ecvessqqv6ae"
}
groups = {
  web      = ["web1", "web2"]
  database = ["db1"]
  admins   = ["admin"]
}
# Whom each value of data/ is for: the first rule, in this order, whose glob matches the value's file
# (relative to data/) decides; {NAME} matches one name and gives it to the list. A value's to= label
# is a copy `govern secret rekey` checks and corrects, never a reason to add a reader.
values = {
  "hosts/{host}.hcl" = ["{host}", "admins"]
  "roles/{role}.hcl" = ["{role}", "admins"]
}
