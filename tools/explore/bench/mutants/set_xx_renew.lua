-- Mutant: renew by writing the key again (SET XX PX): it keeps the TTL fresh, and writes our token over
-- whoever holds the lock now. KEYS[1], ARGV[1] token, ARGV[2] TTL ms.
if redis.call('set', KEYS[1], ARGV[1], 'XX', 'PX', ARGV[2]) then
  return 1
end
return 0
