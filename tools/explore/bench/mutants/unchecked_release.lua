-- Mutant: release without the owner check (plain DEL). KEYS[1] lock key, ARGV[1] token (ignored).
return redis.call('del', KEYS[1])
