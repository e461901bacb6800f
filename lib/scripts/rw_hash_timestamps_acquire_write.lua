-- rw-hash-timestamps write acquire (DELIBERATELY BROKEN variant). KEYS[1] the lock hash; ARGV[1] token;
-- ARGV[2] ttl ms; ARGV[3] the caller's wall clock in ms. Fields "read:<token>" / "write:<token>" hold each
-- holder's deadline by ITS OWN clock. Fields whose deadline is before ARGV[3] are judged stale by the
-- caller's clock and removed (THE FLAW: a caller whose clock runs ahead removes live holders).
-- Already ours (retry after a lost reply): 1. Anyone else left: 0. Otherwise our write field, PEXPIRE: 1.
-- ARGV[2] or ARGV[3] not a whole number of ms in range: an error reply, nothing changed.
local ttl = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if not ttl or not now or ttl <= 0 or ttl > 1e12 or now < 0 or now > 1e15 or ttl % 1 ~= 0 or now % 1 ~= 0 then
  return redis.error_reply('ERR ARGV[2] must be a TTL and ARGV[3] a wall clock, in whole ms')
end
local mine = 'write:' .. tostring(ARGV[1])
local fields = redis.call('HGETALL', KEYS[1])
local others = 0
for i = 1, #fields, 2 do
  if fields[i] ~= mine then
    local deadline = tonumber(fields[i + 1])
    if not deadline or deadline < now then
      redis.call('HDEL', KEYS[1], fields[i])
    else
      others = others + 1
    end
  end
end
if redis.call('HEXISTS', KEYS[1], mine) == 1 then
  return 1
end
if others > 0 then
  return 0
end
redis.call('HSET', KEYS[1], mine, now + ttl)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
