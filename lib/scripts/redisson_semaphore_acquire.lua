-- redisson-semaphore's tryAcquire(1), written from RSemaphore's documented behaviour. KEYS[1] the counter of
-- free permits. When at least one is free: DECRBY 1, reply 1; else (or when no one has set the permits yet)
-- reply 0. No owner is recorded anywhere and nothing expires: the permit is the caller's until it calls release,
-- and a retry of this script after a lost reply takes a second permit.
local free = tonumber(redis.call('GET', KEYS[1]) or '0')
if free >= 1 then
  redis.call('DECRBY', KEYS[1], 1)
  return 1
end
return 0
