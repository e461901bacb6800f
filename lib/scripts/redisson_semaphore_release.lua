-- redisson-semaphore's release(1), written from RSemaphore's documented behaviour. KEYS[1] the counter; ARGV[1]
-- the channel waiters listen on. INCRBY 1 and PUBLISH the new count, whoever calls it and however often: a retry
-- after a lost reply returns a second permit that was never taken. Replies 1.
local free = redis.call('INCRBY', KEYS[1], 1)
redis.call('PUBLISH', ARGV[1], free)
return 1
