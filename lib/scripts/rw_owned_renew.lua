-- rw-owned renew (both modes). KEYS[1] the lock hash; ARGV[1] token; ARGV[2] ttl ms.
-- Our write hold: reset the TTL. Our read hold: make the key live at least ARGV[2] more (never shorter).
-- Returns 1; not ours: 0, no effect.
if redis.call('HEXISTS', KEYS[1], 'w:' .. tostring(ARGV[1])) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if redis.call('HEXISTS', KEYS[1], 'r:' .. tostring(ARGV[1])) == 1 then
  if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
  end
  return 1
end
return 0
