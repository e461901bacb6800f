-- Mutant: renew with EXPIRE (seconds) given the TTL in milliseconds: a 1 s lease renewed becomes 1000 s. KEYS[1],
-- ARGV[1] token, ARGV[2] TTL ms.
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('expire', KEYS[1], ARGV[2])
end
return 0
