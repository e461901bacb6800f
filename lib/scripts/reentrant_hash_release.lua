-- reentrant-hash release (reentrant-maxttl's and redisson-like's too), safe to retry. KEYS[1] the lock hash;
-- KEYS[2] this release's request record; KEYS[3] (a cleanup only) the record of the acquire it gives back;
-- ARGV[1] hold field; ARGV[2] ttl ms; ARGV[3] (redisson-like only) the channel waiters listen on; ARGV[4] 'shard'
-- when it is a shard channel in KEYS[1]'s slot (a cluster: SPUBLISH reaches its subscribers on this shard).
-- A retry after a lost reply returns the recorded result and changes nothing. Otherwise: ours (and, for a
-- cleanup, the acquire's grant recorded, "1"): one hold less; when none is left the key
-- is deleted and, given ARGV[3], the release announced there (so a waiter wakes at once instead of polling);
-- result 1. Not ours (or gone, or the acquire never counted): 0, no effect. The result is recorded in KEYS[2]
-- for as long as the key lives, at least ARGV[2] ms, and two TTLs more: a node clock running ahead expires it
-- early, and a retry the client still trusts it for must find it, or it counts a hold down twice. A cleanup
-- leaves the acquire's record "0" (given back) for as long: a copy of that acquire landing late, after the
-- client gave up, then counts nothing (the explore gate at 1000 runs, seed 881).
local done = redis.call('GET', KEYS[2])
if done then
  return tonumber(done)
end
local released = 0
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 and (KEYS[3] == nil or redis.call('GET', KEYS[3]) == '1') then
  released = 1
  if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then
    redis.call('DEL', KEYS[1])
    if ARGV[4] == 'shard' then
      redis.call('SPUBLISH', ARGV[3], 'released')
    elseif ARGV[3] then
      redis.call('PUBLISH', ARGV[3], 'released')
    end
  end
end
local keep = math.max(redis.call('PTTL', KEYS[1]), tonumber(ARGV[2])) + 2 * tonumber(ARGV[2])
redis.call('SET', KEYS[2], released, 'PX', keep)
if KEYS[3] then
  redis.call('SET', KEYS[3], '0', 'PX', keep)  -- the acquire given back: a copy of it landing late counts nothing
end
return released
