modules = ["web"]
sites = {
  shop = { server_name = "shop.example.org", port = 8080 }
  blog = { server_name = "blog.example.org", port = 8081 }
}
web = {
  session_secret = "ENC[age,to=web+admins,YWdlLWVuY3J5cHRpb24ub3JnL3YxCi0+IHNzaC1lZDI1NTE5IERlemhsUSBQZ3UrVFlVMFpHSjZxN0E0MGd5ZDdaVXg3N1R4cVUwMTVzKzlDZUQrVFNJCnRqdStsUk1JdVZtRkhCL2VQcTNVQzhjUG1Zb3U3SXY5YTdsYWZ3UGkwdVUKLT4gc3NoLWVkMjU1MTkgdTIrNEF3IEdYM0NKMkhrY09uMHZicGJFdHlyaEk4S052UjJkSXBnSjh5MUxPT0lkU1UKZC9mZXhjV08yYytTMWpUcE1TQ3BRWHQyT0xsQXN6Q2tHa2F6aDhzME1lMAotPiBYMjU1MTkgWTNxdXN5czRKbUpLWXdOY2NvQXlYN2tPbEd2c3BLYjROU0FkNlhxRUdqUQpBcUJaU2dlUjlDVkNMRTlHNFdieHQ0QWV4TzU1SGFkRmJQbW55TEpPL0NJCi0tLSBVY3FWQ3FqUjUvY0h1b0d6MDRTY20zSExjaUFjc2FHZ0JzNE1tNTYwV3JRChvvOnoVUaQtrCZMVy8zji1Nsf8KWeXViQyx2kdM1F64FdhgQ+Ri3PAtQZS2DFLZZIxaFawk+cuXi3s=]"
}
# nginx_site's parameters not set by an instance come from here (automatic parameter lookup).
nginx_site = { tls = "on" }
