-- Mutant: the TTL's argument index mistyped. PX takes ARGV[3], the caller's wall clock in milliseconds, instead
-- of ARGV[2], the TTL: the key lives for decades, and a holder that dies leaves the lock taken.
-- KEYS[1], ARGV[1] token, ARGV[2] TTL ms, ARGV[3] wall clock ms.
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[3]) then
  return 1
end
return 0
