-- Compare-and-delete: only the holder of the token may delete the lock.
-- KEYS[1] lock key, ARGV[1] token. Returns 1 when deleted, 0 when the key is absent or held by another token.
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
