-- semaphore (lockcheck::CountingSemaphore) renew, safe to retry. KEYS[1] the sorted set of permits; ARGV[1] permit
-- id; ARGV[2] TTL ms. When the permit is still ours and its deadline (on the server's clock) has not passed, it
-- moves to now + TTL and the key lives as long as its last permit: 1. Otherwise 0: the permit is gone (it expired,
-- and another acquire may have taken its place), and renewing must not bring it back.
local time = redis.call('TIME')
local now_ms = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local deadline = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not deadline or tonumber(deadline) <= now_ms then
  return 0
end
redis.call('ZADD', KEYS[1], 'XX', now_ms + tonumber(ARGV[2]), ARGV[1])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], last[2])
return 1
