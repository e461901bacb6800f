-- Fenced acquire: take the lock and hand out the next fencing token, in one atomic step.
-- KEYS[1] lock key, KEYS[2] fencing hash (key .. ':fence'), ARGV[1] owner token, ARGV[2] TTL in ms.
-- The hash has no TTL (the counter must never go back): field 'counter' is the last token handed out,
-- 'holder' / 'holder_fence' the owner token and fencing token of the latest grant (for a reclaim).
-- Returns the fencing token (>= 1) when acquired, 0 when another owner holds the lock.
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local fence = redis.call('hincrby', KEYS[2], 'counter', 1)
  redis.call('hset', KEYS[2], 'holder', ARGV[1], 'holder_fence', fence)
  return fence
end
return 0
