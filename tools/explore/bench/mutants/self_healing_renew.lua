-- Mutant: a "self-healing" renew. It extends the key when it holds the caller's token, as it should, and when
-- the key has gone it puts the caller's token back, so that a holder slowed past its TTL "keeps" its lock. The
-- key had expired, and another client may have taken and released it in the gap; the holder is told it held
-- the lock all along. KEYS[1], ARGV[1] token, ARGV[2] TTL ms.
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] or not holder then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
