-- redisson-fair's tryLock, written from RFairLock's documented behaviour (DELIBERATELY BROKEN, for study).
-- KEYS[1] the lock hash (owner -> hold count); KEYS[2] the queue: a list of the waiting owners, oldest first;
-- KEYS[3] the timeout sorted set: owner -> the time by which it must have taken the lock, in ms on the clock of
-- the CLIENT that scored it. ARGV[1] owner; ARGV[2] lease ms; ARGV[3] the thread wait time ms; ARGV[4] the
-- CALLER's wall clock in ms.
-- First the waiters at the head of the queue whose timeout is at or below the CALLER's clock are purged as dead
-- (a caller whose clock runs ahead purges live ones). Then: the lock free and the queue empty or headed by us:
-- we take it (hold count 1, PEXPIRE the lease), leave the queue, and every later waiter moves up one place (its
-- timeout one thread wait time earlier); reply 1. Ours already: one more hold; reply 1 (so a retry after a lost
-- reply counts a second hold). Waiting already: reply {0, ms until our turn}. Else we join the queue's tail,
-- timed out at the last waiter's timeout (or the caller's clock + the lock's PTTL) + the thread wait time: each
-- waiter's timeout is chained to the one before it, so one far-future score pushes every later one further out;
-- reply {0, ms until our turn}.
local now = tonumber(ARGV[4])
local wait = tonumber(ARGV[3])
for _ = 1, redis.call('LLEN', KEYS[2]) do
  local first = redis.call('LINDEX', KEYS[2], 0)
  local timeout = redis.call('ZSCORE', KEYS[3], first)
  if timeout and tonumber(timeout) > now then
    break
  end
  redis.call('LPOP', KEYS[2])
  redis.call('ZREM', KEYS[3], first)
end
if redis.call('EXISTS', KEYS[1]) == 0 then
  local first = redis.call('LINDEX', KEYS[2], 0)
  if not first or first == ARGV[1] then
    if first then
      redis.call('LPOP', KEYS[2])
    end
    redis.call('ZREM', KEYS[3], ARGV[1])
    for _, owner in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
      redis.call('ZINCRBY', KEYS[3], -wait, owner)
    end
    redis.call('HSET', KEYS[1], ARGV[1], 1)
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return 1
  end
end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
local mine = redis.call('ZSCORE', KEYS[3], ARGV[1])
if mine then
  return {0, tonumber(mine) - wait - now}
end
local last = redis.call('LINDEX', KEYS[2], -1)
local last_timeout = last and redis.call('ZSCORE', KEYS[3], last)
local due
if last_timeout then
  due = tonumber(last_timeout)
else
  due = now + math.max(redis.call('PTTL', KEYS[1]), 0)
end
redis.call('ZADD', KEYS[3], due + wait, ARGV[1])
redis.call('RPUSH', KEYS[2], ARGV[1])
return {0, due - now}
