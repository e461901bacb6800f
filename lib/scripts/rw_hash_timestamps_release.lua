-- rw-hash-timestamps release, both modes (DELIBERATELY BROKEN variant). KEYS[1] the lock hash; ARGV[1] token.
-- Removes our write or read field, and the key with the last field: 1. Neither field: 0, no effect.
local removed = redis.call('HDEL', KEYS[1], 'write:' .. tostring(ARGV[1]), 'read:' .. tostring(ARGV[1]))
if removed == 0 then
  return 0
end
if redis.call('HLEN', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[1])
end
return 1
