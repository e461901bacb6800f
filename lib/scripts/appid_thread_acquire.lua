-- appid-thread acquire (DELIBERATELY BROKEN, for study). KEYS[1] the lock key; ARGV[1] APP_ID + thread id;
-- ARGV[2] ttl ms. Already ours: re-PEXPIRE with ARGV[2], even when that is shorter than what is left (the
-- bug); returns 1. Free: SET with the TTL; returns 1. Someone else's: 0.
local value = redis.call('GET', KEYS[1])
if value == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if value then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
