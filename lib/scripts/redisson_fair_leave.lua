-- redisson-fair's acquireFailed (a waiter whose wait ran out leaves the queue), written from RFairLock's
-- documented behaviour (DELIBERATELY BROKEN, for study). KEYS[1] the lock hash; KEYS[2] the queue list; KEYS[3]
-- the timeout sorted set; ARGV[1] owner; ARGV[2] the waiters' channel prefix. Removes the owner from both. The
-- waiters behind it keep their timeouts, which were chained to its own: each departure leaves them one thread
-- wait time further in the future than their place now needs (the drift of redisson/redisson#1104, #2099). When
-- the leaver headed the queue of a free lock, the new head is told. Reply 1.
local first = redis.call('LINDEX', KEYS[2], 0)
redis.call('LREM', KEYS[2], 0, ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
if first == ARGV[1] and redis.call('EXISTS', KEYS[1]) == 0 then
  local next_owner = redis.call('LINDEX', KEYS[2], 0)
  if next_owner then
    redis.call('PUBLISH', ARGV[2] .. next_owner, 'released')
  end
end
return 1
