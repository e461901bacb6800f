-- rw-hash-timestamps renew, both modes (DELIBERATELY BROKEN variant). KEYS[1] the lock hash; ARGV[1] token;
-- ARGV[2] ttl ms; ARGV[3] the caller's wall clock in ms. Our field: deadline ARGV[3] + ARGV[2], and the
-- key's TTL raised to at least ARGV[2]: 1. Not ours (removed as stale, or expired): 0.
-- ARGV[2] or ARGV[3] not a whole number of ms in range: an error reply, nothing changed.
local ttl = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if not ttl or not now or ttl <= 0 or ttl > 1e12 or now < 0 or now > 1e15 or ttl % 1 ~= 0 or now % 1 ~= 0 then
  return redis.error_reply('ERR ARGV[2] must be a TTL and ARGV[3] a wall clock, in whole ms')
end
local deadline = now + ttl
for _, field in ipairs({'write:' .. tostring(ARGV[1]), 'read:' .. tostring(ARGV[1])}) do
  if redis.call('HEXISTS', KEYS[1], field) == 1 then
    redis.call('HSET', KEYS[1], field, deadline)
    if redis.call('PTTL', KEYS[1]) < ttl then
      redis.call('PEXPIRE', KEYS[1], ARGV[2])
    end
    return 1
  end
end
return 0
