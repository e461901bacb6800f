-- Mutant: a lock with no TTL at all (SET NX): a holder that dies holds it forever. KEYS[1], ARGV[1] token.
if redis.call('set', KEYS[1], ARGV[1], 'NX') then
  return 1
end
return 0
