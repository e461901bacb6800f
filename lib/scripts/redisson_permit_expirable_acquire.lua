-- redisson-permit-expirable's tryAcquire(lease), written from RPermitExpirableSemaphore's documented behaviour.
-- KEYS[1] the counter of free permits; KEYS[2] the sorted set of permits out: member = permit id, score = its
-- expiry in ms on the ACQUIRING CLIENT's clock; ARGV[1] the new permit's id; ARGV[2] the caller's clock in ms;
-- ARGV[3] the lease in ms. First every permit whose expiry is at or below the CALLER's clock is taken back (a
-- caller whose clock runs ahead takes back permits whose holders are still inside their leases); then, when a
-- permit is free: DECR, the new id scored caller's clock + lease, reply 1. Else 0. A retry of this script after a
-- lost reply DECRs a second time for the same id: a permit nobody returns.
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
if #expired > 0 then
  redis.call('ZREM', KEYS[2], unpack(expired))
  redis.call('INCRBY', KEYS[1], #expired)
end
local free = tonumber(redis.call('GET', KEYS[1]) or '0')
if free < 1 then
  return 0
end
redis.call('DECR', KEYS[1])
redis.call('ZADD', KEYS[2], tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[1])
return 1
