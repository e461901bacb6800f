-- A user's acquire in the style of the old "Locking with SETNX" recipe: the value is the deadline by the
-- CLIENT's clock, and a lock whose stored deadline has passed (by the caller's clock) is taken over.
-- KEYS[1] lock key, ARGV[1] token, ARGV[2] TTL in ms, ARGV[3] the client's wall clock in ms.
-- The value is "<deadline ms>:<token>" so release can check the owner.
local now = tonumber(ARGV[3])
local deadline = now + tonumber(ARGV[2])
local current = redis.call('get', KEYS[1])
if current then
  local stored = tonumber(string.match(current, '^(%d+):'))
  if stored and stored > now then
    return 0
  end
end
redis.call('set', KEYS[1], deadline .. ':' .. ARGV[1], 'PX', ARGV[2])
return 1
