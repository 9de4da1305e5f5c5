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

# Every host's time zone, by the tree's own runner (runners.d/timezone): data key timezone.
timezone {{quote (data "timezone")}} {
  root = {{quote (data "root")}}
  {{#if (data "root")}}
  after = ["file:{{data "root"}}/etc"]
  {{/if}}
}
