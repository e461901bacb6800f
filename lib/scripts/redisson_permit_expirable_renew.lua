-- redisson-permit-expirable's updateLeaseTime(permitId, lease), written from RPermitExpirableSemaphore's
-- documented behaviour. KEYS[1] the sorted set of permits out; ARGV[1] permit id; ARGV[2] the caller's clock in ms;
-- ARGV[3] the lease in ms. When the id is out and its expiry (on the acquiring client's clock) is later than the
-- caller's clock: rescored caller's clock + lease, reply 1. Else 0.
local expiry = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not expiry or tonumber(expiry) <= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], 'XX', tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[1])
return 1
