-- rw-owned read acquire. KEYS[1] the lock hash; KEYS[2] this token's mark of being given back
-- (rw_owned_release.lua); ARGV[1] token; ARGV[2] ttl ms.
-- Given back (released, or cleaned up after the client gave up): 0, nothing counted. An attempt still on its
-- way then would make the key afresh with a reader no lease stands for (the explore gate, seed 949).
-- Free or held for reading: add our reader field and make the key live at least ARGV[2] more (never
-- shorter: other readers' leases rely on its TTL); returns 1. Held by a writer: 0.
if redis.call('EXISTS', KEYS[2]) == 1 then
  return 0
end
local field = 'r:' .. tostring(ARGV[1])
if redis.call('HEXISTS', KEYS[1], field) == 0 then
  if redis.call('EXISTS', KEYS[1]) == 0 then
    redis.call('HSET', KEYS[1], 'mode', 'read')
  elseif redis.call('HGET', KEYS[1], 'mode') ~= 'read' then
    return 0
  end
  redis.call('HSET', KEYS[1], field, 1)
end
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1
