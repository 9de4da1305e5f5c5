# Every host: the directory the example writes under (the data key root). With root = "", on a real
# host, there is nothing to make.
{{#if (data "root")}}
file {{quote (data "root")}} {
  ensure = "directory"
  owner  = "root"
  group  = "root"
  mode   = "0755"
}

file {{quote (concat (data "root") "/etc")}} {
  ensure = "directory"
  owner  = "root"
  group  = "root"
  mode   = "0755"
}
{{/if}}
