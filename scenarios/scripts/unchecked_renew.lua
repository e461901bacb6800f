-- A user's renew with THE BUG of the articles' first watchdog: it extends the key if it exists, whoever holds
-- it (no owner check). KEYS[1] lock key, ARGV[1] token (ignored), ARGV[2] TTL in ms.
return redis.call('pexpire', KEYS[1], ARGV[2])
