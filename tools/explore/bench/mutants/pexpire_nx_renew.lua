-- Mutant: a renew that meant "extend only": PEXPIRE's NX option (Redis 7) sets a TTL only on a key without one,
-- so on the lock key, which has one, it changes nothing; the script answers 1 all the same. The holder's
-- validity is extended, the key's is not. KEYS[1], ARGV[1] token, ARGV[2] TTL ms.
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2], 'NX')
  return 1
end
return 0
