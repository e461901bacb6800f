-- redisson-fenced acquire: RFencedLock's lock as documented, Redisson's RLock script plus a fencing token that
-- every acquisition INCRs. KEYS[1] the lock hash; KEYS[2] the token counter (a plain key with no TTL, never
-- deleted: one per lock name for good, redisson/redisson #6510); ARGV[1] hold field; ARGV[2] ttl ms; ARGV[3]
-- "reenter" for a nested acquire (it may only count one more hold of ours, as reentrant_hash_acquire.lua).
-- Free, or already ours: INCR the counter, count one more hold, set the TTL; returns the new token (>= 1).
-- Someone else's: 0. Nothing records the request: a retry after a lost reply counts a second hold (and takes
-- a second token), as redisson-like-retries' script does.
local ours = redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1
if not ours and (ARGV[3] == 'reenter' or redis.call('EXISTS', KEYS[1]) == 1) then
  return 0
end
local token = redis.call('INCR', KEYS[2])
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return token
