-- A user's correct acquire, under the `script` contract: SET NX PX with the caller's token.
-- KEYS[1] lock key, ARGV[1] token, ARGV[2] TTL in ms, ARGV[3] the client's wall clock in ms (unused here).
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 1
end
return 0
