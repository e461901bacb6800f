-- Acquire after an attempt whose reply was lost: that attempt may have set the key with this token.
-- KEYS[1] lock key, ARGV[1] token, ARGV[2] TTL in ms.
-- Returns 1 when the lock is now held with this token (set now, or already ours and its TTL refreshed),
-- 0 when another token holds it.
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
  return 1
end
if holder then
  return 0
end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
