# One host's own values: the most specific level.
web = { workers = 8 }
