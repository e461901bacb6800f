-- reentrant-maxttl renew. KEYS[1] the lock hash; ARGV[1] hold field; ARGV[2] ttl ms.
-- Ours: raise the TTL to ARGV[2] if that is longer than what is left (never shortens); returns 1.
-- Not ours (or gone): 0, no effect.
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  local ttl = tonumber(ARGV[2])
  if redis.call('PTTL', KEYS[1]) < ttl then
    redis.call('PEXPIRE', KEYS[1], ttl)
  end
  return 1
end
return 0
