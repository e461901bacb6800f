-- fair (lockcheck::FairMutex) acquire, safe to retry. KEYS[1] the lock key (the owner's token, as the token
-- lock's); KEYS[2] the queue: a sorted set of waiting tokens scored by their ticket (arrival order); KEYS[3] the
-- waiters' deadlines: a sorted set of the same tokens scored by a deadline in ms on the SERVER's clock (TIME,
-- never a client's). ARGV[1] token; ARGV[2] TTL ms; ARGV[3] the waiter lease ms.
-- First every waiter whose deadline has passed is dropped: it stopped polling (it died, gave up, or could not
-- reach us for a whole waiter lease). Ours already (a retry after a lost reply): granted, the TTL set again.
-- The lock free and no one ahead of us in the queue: taken (SET with the TTL), and we leave the queue; reply 1.
-- Else we keep our place (or take a ticket after the last one) and our deadline moves to now + the waiter lease;
-- both queue keys live as long as their last deadline; reply 0. A waiter that polls within its lease keeps its
-- place whatever any client's clock says.
local time = redis.call('TIME')
local now_ms = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local gone = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now_ms)
if #gone > 0 then
  redis.call('ZREM', KEYS[3], unpack(gone))
  redis.call('ZREM', KEYS[2], unpack(gone))
end
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not holder then
  local first = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
  if not first or first == ARGV[1] then
    redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
    redis.call('ZREM', KEYS[2], ARGV[1])
    redis.call('ZREM', KEYS[3], ARGV[1])
    return 1
  end
end
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  local last = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
  local ticket = 1
  if last[2] then
    ticket = tonumber(last[2]) + 1
  end
  redis.call('ZADD', KEYS[2], ticket, ARGV[1])
end
redis.call('ZADD', KEYS[3], now_ms + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('PEXPIRE', KEYS[3], ARGV[3])
return 0
