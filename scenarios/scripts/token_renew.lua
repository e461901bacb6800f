-- A user's correct renew, under the `script` contract: compare-and-pexpire, so only the holder's own key is
-- extended. KEYS[1] lock key, ARGV[1] token, ARGV[2] TTL in ms. 1 when extended, 0 when not ours.
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
