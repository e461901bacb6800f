-- reentrant-maxttl acquire. KEYS[1] the lock hash; ARGV[1] owner id; ARGV[2] ttl ms.
-- Free, or already ours: count one more hold; set the TTL to ARGV[2] only when that is longer than what
-- is left (a reentry never shortens the lock); returns 1. Someone else's: 0.
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
  local ttl = tonumber(ARGV[2])
  if redis.call('PTTL', KEYS[1]) < ttl then
    redis.call('PEXPIRE', KEYS[1], ttl)
  end
  return 1
end
return 0
