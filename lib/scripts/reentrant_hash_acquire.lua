-- reentrant-hash acquire (Redisson's lock script). KEYS[1] the lock hash; ARGV[1] owner id; ARGV[2] ttl ms.
-- Free, or already ours: count one more hold and set the TTL to ARGV[2]; returns 1. Someone else's: 0.
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
