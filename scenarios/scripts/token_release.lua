-- Compare-and-delete: KEYS[1] lock key, ARGV[1] token. 1 when released, 0 when not owned.
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
