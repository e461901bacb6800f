-- fair (lockcheck::FairMutex): a waiter that gives up leaves the queue at once instead of holding the others back
-- for the rest of its waiter lease. KEYS[2] the queue; KEYS[3] the waiters' deadlines (KEYS[1], the lock key, is
-- named for Redis Cluster's slot check only); ARGV[1] token. Safe to repeat. Reply 1 when it was waiting, else 0.
redis.call('ZREM', KEYS[3], ARGV[1])
return redis.call('ZREM', KEYS[2], ARGV[1])
