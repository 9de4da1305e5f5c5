modules = ["cache"]
cache   = { maxmemory_mb = 512 }
