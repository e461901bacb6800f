-- Mutant: a release in one command, GETDEL, then the check whether the token taken was ours. The key is gone
-- before the check: a release sent again after a lost reply, or a late one, deletes another holder's lock.
-- KEYS[1], ARGV[1] token.
local taken = redis.call('getdel', KEYS[1])
if taken == ARGV[1] then
  return 1
end
return 0
