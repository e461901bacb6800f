-- Deletes the lock when its value ends with the caller's token. KEYS[1], ARGV[1] token.
local current = redis.call('get', KEYS[1])
if current and string.sub(current, -string.len(ARGV[1])) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
