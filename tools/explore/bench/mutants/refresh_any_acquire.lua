-- Mutant: an acquire that "refreshes" the TTL whenever the key exists, meaning to extend its own hold on a
-- retry, but without checking whose it is. KEYS[1], ARGV[1] token, ARGV[2] TTL ms.
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 1
end
redis.call('pexpire', KEYS[1], ARGV[2])
return 0
