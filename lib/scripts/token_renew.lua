-- Compare-and-pexpire: only the holder of the token may extend the lock; an expired lock is never re-created.
-- KEYS[1] lock key, ARGV[1] token, ARGV[2] new TTL in ms. Returns 1 when extended, 0 when not owned.
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
