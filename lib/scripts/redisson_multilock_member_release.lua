-- redisson-multilock / redisson-redlock: one member lock's unlock, written from RLock's documented behaviour.
-- KEYS[1] the member's hash; ARGV[1] the owner id. The owner's: one hold less, and the key deleted with its last
-- hold; replies 1. Not the owner's (expired, or never taken): replies 0, no effect.
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  return 0
end
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then
  redis.call('DEL', KEYS[1])
end
return 1
