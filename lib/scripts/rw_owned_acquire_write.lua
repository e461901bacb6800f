-- rw-owned write acquire. KEYS[1] the lock hash; KEYS[2] this token's mark of being given back
-- (rw_owned_release.lua); ARGV[1] token; ARGV[2] ttl ms.
-- The hash: "mode" = read | write, one field "r:<token>" per reader hold, "w:<token>" for the writer.
-- Free: take it for writing with TTL ARGV[2]; returns 1. Already ours (a retried attempt whose reply was
-- lost): the TTL set again to ARGV[2], since the lease counts a full TTL from this attempt; returns 1. Held by
-- any reader or another writer, or given back (an attempt landing after its release or cleanup): 0.
if redis.call('EXISTS', KEYS[2]) == 1 then
  return 0
end
if redis.call('HEXISTS', KEYS[1], 'w:' .. tostring(ARGV[1])) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'mode', 'write')
redis.call('HSET', KEYS[1], 'w:' .. tostring(ARGV[1]), 1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
