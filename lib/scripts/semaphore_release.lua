-- semaphore (lockcheck::CountingSemaphore) release, safe to retry. KEYS[1] the sorted set of permits; ARGV[1]
-- permit id. Removes that permit only, never another holder's: 1 when it was there, 0 when it was not (expired
-- and dropped, or removed by an earlier try whose reply was lost). A retry cannot return a second permit.
return redis.call('ZREM', KEYS[1], ARGV[1])
