-- reentrant-hash release. KEYS[1] the lock hash; ARGV[1] owner id.
-- Ours: one hold less, the key deleted when none is left; returns 1. Not ours (or gone): 0, no effect.
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  return 0
end
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then
  redis.call('DEL', KEYS[1])
end
return 1
