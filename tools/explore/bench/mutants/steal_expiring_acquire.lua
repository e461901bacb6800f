-- Mutant: "lock stealing" of a lock about to expire, a shortcut teams add so that waiters need not sleep out
-- the last few milliseconds of a dead holder's TTL. It takes a live holder's lock too. KEYS[1], ARGV[1] token,
-- ARGV[2] TTL ms.
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 1
end
local left = redis.call('pttl', KEYS[1])
if left >= 0 and left < 100 then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
