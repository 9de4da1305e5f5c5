# One nginx_site instance per site of the data key sites: two on web hosts, none elsewhere.
{{#each (data "sites")}}
module {{quote @key}} {
  source      = "nginx_site"
  server_name = {{quote this.server_name}}
  port        = {{this.port}}
}
{{/each}}
