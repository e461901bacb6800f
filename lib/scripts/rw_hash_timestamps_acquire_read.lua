-- rw-hash-timestamps read acquire (DELIBERATELY BROKEN variant). KEYS[1] the lock hash; ARGV[1] token;
-- ARGV[2] ttl ms; ARGV[3] the caller's wall clock in ms. Removes the fields whose deadline is before ARGV[3]
-- (stale by the caller's clock: THE FLAW). A live writer left: 0. Otherwise our read field with deadline
-- ARGV[3] + ARGV[2], and the key's TTL raised to at least ARGV[2] (never lowered): 1.
local now = tonumber(ARGV[3])
local fields = redis.call('HGETALL', KEYS[1])
local writers = 0
for i = 1, #fields, 2 do
  if tonumber(fields[i + 1]) < now then
    redis.call('HDEL', KEYS[1], fields[i])
  elseif string.sub(fields[i], 1, 6) == 'write:' then
    writers = writers + 1
  end
end
if writers > 0 then
  return 0
end
redis.call('HSET', KEYS[1], 'read:' .. ARGV[1], now + tonumber(ARGV[2]))
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1
