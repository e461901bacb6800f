-- rw-owned release (both modes), an acquire's cleanup too. KEYS[1] the lock hash; KEYS[2] the token's mark of
-- being given back; ARGV[1] token; ARGV[2] ttl ms.
-- Our write hold: delete the key; returns 1. Our read hold: remove only our reader field, and the key with
-- the last reader; returns 1. Neither (expired, or never ours): 0, no effect on the hash. Either way the token
-- is marked given back, for as long as the key lives and two TTLs more (at least three): an attempt of its
-- acquire landing late (still queued at a slow node) then counts nothing (rw_owned_acquire_*.lua).
local released = 0
if redis.call('HEXISTS', KEYS[1], 'w:' .. tostring(ARGV[1])) == 1 then
  redis.call('DEL', KEYS[1])
  released = 1
elseif redis.call('HDEL', KEYS[1], 'r:' .. tostring(ARGV[1])) == 1 then
  if redis.call('HLEN', KEYS[1]) <= 1 then
    redis.call('DEL', KEYS[1])
  end
  released = 1
end
local ttl = tonumber(ARGV[2])
redis.call('SET', KEYS[2], '1', 'PX', math.max(redis.call('PTTL', KEYS[1]), ttl) + 2 * ttl)
return released
