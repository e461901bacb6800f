-- rw-hash-timestamps renew, both modes (DELIBERATELY BROKEN variant). KEYS[1] the lock hash; ARGV[1] token;
-- ARGV[2] ttl ms; ARGV[3] the caller's wall clock in ms. Our field: deadline ARGV[3] + ARGV[2], and the
-- key's TTL raised to at least ARGV[2]: 1. Not ours (removed as stale, or expired): 0.
local deadline = tonumber(ARGV[3]) + tonumber(ARGV[2])
for _, field in ipairs({'write:' .. ARGV[1], 'read:' .. ARGV[1]}) do
  if redis.call('HEXISTS', KEYS[1], field) == 1 then
    redis.call('HSET', KEYS[1], field, deadline)
    if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then
      redis.call('PEXPIRE', KEYS[1], ARGV[2])
    end
    return 1
  end
end
return 0
