-- Fenced acquire after an attempt whose reply was lost: that attempt may have taken the lock already.
-- KEYS[1] lock key, KEYS[2] fencing hash, ARGV[1] owner token, ARGV[2] TTL in ms.
-- Key holds our token: refresh its TTL and return the fencing token that grant received (a fresh one if the
-- hash no longer names us). Key free: acquire as fenced_acquire.lua does. Another owner: return 0.
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
  if redis.call('hget', KEYS[2], 'holder') == ARGV[1] then
    local known = tonumber(redis.call('hget', KEYS[2], 'holder_fence'))
    if known then
      return known
    end
  end
elseif holder then
  return 0
else
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
local fence = redis.call('hincrby', KEYS[2], 'counter', 1)
redis.call('hset', KEYS[2], 'holder', ARGV[1], 'holder_fence', fence)
return fence
