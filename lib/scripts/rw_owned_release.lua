-- rw-owned release (both modes). KEYS[1] the lock hash; ARGV[1] token.
-- Our write hold: delete the key; returns 1. Our read hold: remove only our reader field, and the key with
-- the last reader; returns 1. Neither (expired, or never ours): 0, no effect.
if redis.call('HEXISTS', KEYS[1], 'w:' .. tostring(ARGV[1])) == 1 then
  redis.call('DEL', KEYS[1])
  return 1
end
if redis.call('HDEL', KEYS[1], 'r:' .. tostring(ARGV[1])) == 1 then
  if redis.call('HLEN', KEYS[1]) <= 1 then
    redis.call('DEL', KEYS[1])
  end
  return 1
end
return 0
