modules = ["web"]
web = {
  sites = {
    shop = { server_name = "shop.example.org", port = 8080 }
    blog = { server_name = "blog.example.org", port = 8081 }
  }
}
# nginx_site's parameters not set by an instance come from here (automatic parameter lookup).
nginx_site = { tls = "on" }
