-- rw-hash-timestamps write acquire (DELIBERATELY BROKEN variant). KEYS[1] the lock hash; ARGV[1] token;
-- ARGV[2] ttl ms; ARGV[3] the caller's wall clock in ms. Fields "read:<token>" / "write:<token>" hold each
-- holder's deadline by ITS OWN clock. Fields whose deadline is before ARGV[3] are judged stale by the
-- caller's clock and removed (THE FLAW: a caller whose clock runs ahead removes live holders).
-- Already ours (retry after a lost reply): 1. Anyone else left: 0. Otherwise our write field, PEXPIRE: 1.
local now = tonumber(ARGV[3])
local mine = 'write:' .. ARGV[1]
local fields = redis.call('HGETALL', KEYS[1])
local others = 0
for i = 1, #fields, 2 do
  if fields[i] ~= mine then
    if tonumber(fields[i + 1]) < now then
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
redis.call('HSET', KEYS[1], mine, now + tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
