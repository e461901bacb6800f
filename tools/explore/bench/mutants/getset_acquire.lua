-- Mutant: the GETSET lock of older tutorials: write our token, and if there was none, set the TTL. A refused
-- acquire has overwritten the holder's token all the same. KEYS[1], ARGV[1] token, ARGV[2] TTL ms.
local old = redis.call('getset', KEYS[1], ARGV[1])
if not old then
  redis.call('pexpire', KEYS[1], ARGV[2])
  return 1
end
return 0
