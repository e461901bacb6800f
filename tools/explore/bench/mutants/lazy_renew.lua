-- Mutant: a renew that saves a write. It checks the caller's token, as it should, but extends the key only when
-- less than half the TTL is left, and answers yes either way. The caller counts a full TTL from its renewal; the
-- key keeps only what it had, so it can expire while its holder believes the lease runs on.
-- KEYS[1], ARGV[1] token, ARGV[2] TTL ms.
if redis.call('get', KEYS[1]) == ARGV[1] then
  if redis.call('pttl', KEYS[1]) < tonumber(ARGV[2]) / 2 then
    redis.call('pexpire', KEYS[1], ARGV[2])
  end
  return 1
end
return 0
