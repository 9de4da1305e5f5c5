# Most specific first. A host without a role or env fact is an error here, at this line:
# it must not silently get no role data; nor may a misspelt role (required: its file must exist).
# Most hosts have no data of their own (optional: no warning when hosts/NAME has no file).
levels = [
  { name = "hosts/{{fact "hostname"}}", optional = true },
  { name = "roles/{{fact "role"}}", required = true },
  "env/{{fact "env"}}",
  "common",
]
merge = { "ntp/servers" = "unique", "admins/users" = "deep" }
