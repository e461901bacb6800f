-- redisson-like-retries acquire: Redisson's RLock lock script as Redisson sends it, with nothing recorded of the
-- request, so a retry of it counts again (redisson/redisson #4822). KEYS[1] the lock hash; ARGV[1] hold field;
-- ARGV[2] ttl ms; ARGV[3] "reenter" for a nested acquire, which may only count one more hold of ours (as
-- reentrant_hash_acquire.lua: that fix is kept, so that the retry is this variant's only difference).
-- Free, or already ours: count one more hold, set the TTL to ARGV[2]; returns 1. Someone else's: 0.
-- Re-sent after a lost reply or a failover error, it finds our field (the lost run set it) and counts a second
-- hold for one acquire: the owner's one release then leaves the hash holding a count of 1.
local ours = redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1
if not ours and (ARGV[3] == 'reenter' or redis.call('EXISTS', KEYS[1]) == 1) then
  return 0
end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
