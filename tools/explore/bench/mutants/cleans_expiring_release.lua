-- Mutant: compare-and-delete that also "cleans up" a lock about to expire anyway, so that waiters need not sleep
-- out its last milliseconds. A live holder's lock has that little left on a node whose clock runs fast, or when
-- the holder is slow to renew. KEYS[1], ARGV[1] token.
if redis.call('get', KEYS[1]) == ARGV[1] or redis.call('pttl', KEYS[1]) < 50 then
  return redis.call('del', KEYS[1])
end
return 0
