-- Mutant: the expiry computed from the client's clock (PEXPIREAT client time + TTL): a client whose clock runs
-- behind sets a deadline already past, or one far ahead. KEYS[1], ARGV[1] token, ARGV[2] TTL ms, ARGV[3] client ms.
if redis.call('set', KEYS[1], ARGV[1], 'NX') then
  redis.call('pexpireat', KEYS[1], tonumber(ARGV[3]) + tonumber(ARGV[2]))
  return 1
end
return 0
