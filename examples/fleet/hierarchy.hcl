# Most specific first. A host without a role or env fact is an error here, at this line:
# it must not silently get no role data.
levels = [
  "hosts/{{fact "hostname"}}",
  "roles/{{fact "role"}}",
  "env/{{fact "env"}}",
  "common",
]
merge = { "ntp/servers" = "unique", "admins/users" = "deep" }
