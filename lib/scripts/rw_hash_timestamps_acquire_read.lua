-- rw-hash-timestamps read acquire (DELIBERATELY BROKEN variant). KEYS[1] the lock hash; ARGV[1] token;
-- ARGV[2] ttl ms; ARGV[3] the caller's wall clock in ms. Removes the fields whose deadline is before ARGV[3]
-- (stale by the caller's clock: THE FLAW). A live writer left: 0. Otherwise our read field with deadline
-- ARGV[3] + ARGV[2], and the key's TTL raised to at least ARGV[2] (never lowered): 1.
-- ARGV[2] or ARGV[3] not a whole number of ms in range: an error reply, nothing changed.
local ttl = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if not ttl or not now or ttl <= 0 or ttl > 1e12 or now < 0 or now > 1e15 or ttl % 1 ~= 0 or now % 1 ~= 0 then
  return redis.error_reply('ERR ARGV[2] must be a TTL and ARGV[3] a wall clock, in whole ms')
end
local fields = redis.call('HGETALL', KEYS[1])
local writers = 0
for i = 1, #fields, 2 do
  local deadline = tonumber(fields[i + 1])
  if not deadline or deadline < now then
    redis.call('HDEL', KEYS[1], fields[i])
  elseif string.sub(fields[i], 1, 6) == 'write:' then
    writers = writers + 1
  end
end
if writers > 0 then
  return 0
end
redis.call('HSET', KEYS[1], 'read:' .. tostring(ARGV[1]), now + ttl)
if redis.call('PTTL', KEYS[1]) < ttl then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1
