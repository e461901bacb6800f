-- redisson-latch's countDown, written from RCountDownLatch's documented behaviour. KEYS[1] the latch's counter;
-- ARGV[1] the channel awaiting clients listen on. DECR; at zero or below the counter is deleted, and reaching zero
-- is announced once on the channel: the only thing that wakes an awaiting client. Nothing records who counted, so
-- a retry after a lost reply counts twice. Replies the count left.
local left = redis.call('DECR', KEYS[1])
if left <= 0 then
  redis.call('DEL', KEYS[1])
end
if left == 0 then
  redis.call('PUBLISH', ARGV[1], 'zero')
end
return left
