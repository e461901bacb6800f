-- redisson-permit-expirable's release(permitId), written from RPermitExpirableSemaphore's documented behaviour.
-- KEYS[1] the counter; KEYS[2] the sorted set of permits out; ARGV[1] permit id; ARGV[2] the waiters' channel.
-- When the id is still out: removed, the counter INCRed, the new count PUBLISHed, reply 1. Else 0 (it expired and
-- was taken back, or an earlier try removed it): a retry cannot return it twice.
if redis.call('ZREM', KEYS[2], ARGV[1]) == 0 then
  return 0
end
local free = redis.call('INCR', KEYS[1])
redis.call('PUBLISH', ARGV[2], free)
return 1
