-- redisson-latch's trySetCount, written from RCountDownLatch's documented behaviour. KEYS[1] the latch's counter;
-- ARGV[1] the count; ARGV[2] the channel awaiting clients listen on. Sets the counter only when it does not exist:
-- before anyone set it, or after it reached zero and was deleted (so a late trySetCount arms the latch again).
-- Replies 1 when it set the counter, 0 when it was there.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('PUBLISH', ARGV[2], 'new count ' .. ARGV[1])
return 1
