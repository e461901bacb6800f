-- redisson-like release. KEYS[1] the lock hash; ARGV[1] owner id; ARGV[2] the channel waiters listen on.
-- Ours: one hold less; when none is left the key is deleted and the release announced on ARGV[2] (so a
-- waiter wakes at once instead of polling); returns 1. Not ours (or gone): 0, no effect.
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  return 0
end
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then
  redis.call('DEL', KEYS[1])
  redis.call('PUBLISH', ARGV[2], 'released')
end
return 1
