-- redisson-fair's unlock, written from RFairLock's documented behaviour (DELIBERATELY BROKEN, for study).
-- KEYS[1] the lock hash; KEYS[2] the queue list; KEYS[3] the timeout sorted set; ARGV[1] owner; ARGV[2] lease ms;
-- ARGV[3] the waiters' channel prefix (a waiter listens on prefix .. its owner id); ARGV[4] the CALLER's wall
-- clock in ms. Purges the queue's head as the acquire does (by the caller's clock). Not ours: 0. Ours: one hold
-- less (the lease renewed while holds remain); at the last, the lock is deleted and the release announced on the
-- channel of the waiter now at the queue's head, and on no other: a waiter that misses it (a lost message, or
-- purged from the queue meanwhile) sleeps until the time its last attempt named. Reply 1.
local now = tonumber(ARGV[4])
for _ = 1, redis.call('LLEN', KEYS[2]) do
  local first = redis.call('LINDEX', KEYS[2], 0)
  local timeout = redis.call('ZSCORE', KEYS[3], first)
  if timeout and tonumber(timeout) > now then
    break
  end
  redis.call('LPOP', KEYS[2])
  redis.call('ZREM', KEYS[3], first)
end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  return 0
end
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
redis.call('DEL', KEYS[1])
local first = redis.call('LINDEX', KEYS[2], 0)
if first then
  redis.call('PUBLISH', ARGV[3] .. first, 'released')
end
return 1
