-- reentrant-hash renew. KEYS[1] the lock hash; ARGV[1] hold field; ARGV[2] ttl ms.
-- Ours: reset the TTL; returns 1. Not ours (or gone): 0, no effect.
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
