modules  = ["database"]
database = { max_connections = 100 }
