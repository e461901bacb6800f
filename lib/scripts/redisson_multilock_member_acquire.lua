-- redisson-multilock / redisson-redlock: one member lock's tryLock, written from RLock's documented behaviour (a
-- hash of owner -> hold count). KEYS[1] the member's hash; ARGV[1] the owner id; ARGV[2] the lease in ms. Free, or
-- already the owner's: one more hold and the lease set; replies 1. Another owner's: replies 0. Not safe to retry:
-- a retry after a lost reply counts a second hold, as RLock's command retry does.
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
