-- redisson-semaphore's trySetPermits, written from RSemaphore's documented behaviour. KEYS[1] the counter;
-- ARGV[1] the number of permits; ARGV[2] the channel waiters listen on. Sets the counter only when it does not
-- exist yet (the first client to call it wins, later calls change nothing) and announces the permits.
-- Replies 1 when it set the counter, 0 when it was there already. Safe to retry: a second run finds the key.
if redis.call('GET', KEYS[1]) then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('PUBLISH', ARGV[2], ARGV[1])
return 1
