-- Mutant: renew adds the TTL to what is left ("extend by"), so a holder that renews often piles up time: a dead
-- holder's key outlives TTL + bound. KEYS[1], ARGV[1] token, ARGV[2] TTL ms.
if redis.call('get', KEYS[1]) == ARGV[1] then
  local left = redis.call('pttl', KEYS[1])
  return redis.call('pexpire', KEYS[1], math.max(left, 0) + tonumber(ARGV[2]))
end
return 0
