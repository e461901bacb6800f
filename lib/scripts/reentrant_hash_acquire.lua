-- reentrant-hash acquire (Redisson's lock script, safe to retry). KEYS[1] the lock hash; KEYS[2] this acquire's
-- request record; ARGV[1] hold field ("<owner id>:<generation>": one per outer acquire of a lock object, where
-- Redisson's names the thread, so a late command of an earlier hold finds no field of its own); ARGV[2] ttl ms;
-- ARGV[3] "reenter" for a nested acquire: it may only count one more hold of ours, so without our field it returns 0
-- (the owner's outer hold is gone; Redisson's script would create the key afresh with a count of 1).
-- Free, or already ours: count one more hold, set the TTL to ARGV[2] and record the grant in KEYS[2], which
-- expires with the key; returns 1. A retry after a lost reply finds the record and our field, and counts
-- nothing again: it only sets the TTLs once more and returns 1. (A record whose hold is gone, with the key,
-- counts for nothing.) Someone else's: 0, nothing recorded, so a later attempt may still be granted. A request
-- its cleanup gave back (the record "0", reentrant_hash_release.lua) returns 0 and counts nothing: a copy of it
-- still on its way when the client gave up must not count a hold on the owner's next one (the explore gate, seed 881).
-- The record lives two TTLs longer than the client trusts it (one TTL): a node clock running ahead expires it
-- early, and a retry that still trusts it must find it, or it counts the hold again.
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
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], 1, 'PX', 3 * tonumber(ARGV[2]))
return 1
