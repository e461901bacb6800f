-- Mutant: acquire without NX, so it overwrites whoever holds the lock. KEYS[1], ARGV[1] token, ARGV[2] TTL ms.
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
