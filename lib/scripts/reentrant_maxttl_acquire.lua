-- reentrant-maxttl acquire (safe to retry). KEYS[1] the lock hash; KEYS[2] this acquire's request record;
-- ARGV[1] hold field; ARGV[2] ttl ms; ARGV[3]
-- "reenter" for a nested acquire: it may only count one more hold of ours, so without our field it returns 0
-- (the owner's outer hold is gone; Redisson's script would create the key afresh with a count of 1).
-- Free, or already ours: count one more hold; set the TTL to ARGV[2] only when that is longer than what is
-- left (a reentry never shortens the lock); record the grant in KEYS[2], which expires with the key; returns
-- 1. A retry after a lost reply finds the record and our field, and counts nothing again. A request its cleanup
-- gave back (the record "0", reentrant_hash_release.lua) returns 0 and counts nothing: a copy of it still on its
-- way when the client gave up must not count a hold on the owner's next one (the explore gate, seed 881). Someone else's: 0.
-- The record lives two TTLs past the key's deadline: a node clock running ahead expires it early, and a retry
-- the client still trusts it for must find it.
local record = redis.call('GET', KEYS[2])
if record == '0' then
  return 0  -- given back by the acquire's cleanup: a late copy of it counts nothing
end
local ours = redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1
if not ours and (ARGV[3] == 'reenter' or redis.call('EXISTS', KEYS[1]) == 1) then
  return 0
end
if not (ours and record) then
  redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
end
local ttl = tonumber(ARGV[2])
local left = redis.call('PTTL', KEYS[1])
if left < ttl then
  redis.call('PEXPIRE', KEYS[1], ttl)
  left = ttl
end
redis.call('SET', KEYS[2], 1, 'PX', left + 2 * ttl)
return 1
