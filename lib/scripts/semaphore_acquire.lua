-- semaphore (lockcheck::CountingSemaphore) acquire, safe to retry. KEYS[1] the sorted set of permits: member =
-- permit id (the owner token), score = its deadline in ms on the SERVER's clock (TIME, never a client's);
-- ARGV[1] permit id; ARGV[2] TTL ms; ARGV[3] how many permits the semaphore has.
-- Every acquire first drops the permits whose deadline has passed (their holders died or stopped renewing),
-- so a dead holder's permit comes back after its lease. Ours already (a retry after a lost reply): granted again,
-- with a fresh deadline. Else granted when fewer than ARGV[3] permits are out. The key expires with its last
-- permit. Replies 1 when granted, 0 when every permit is out.
local time = redis.call('TIME')
local now_ms = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('ZADD', KEYS[1], now_ms + tonumber(ARGV[2]), ARGV[1])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], last[2])
return 1
