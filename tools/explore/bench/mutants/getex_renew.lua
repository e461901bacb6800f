-- Mutant: a renew in one command, GETEX ... PX (read the token and push the expiry), then the check whether the
-- token was ours. The expiry is pushed before the check: a holder whose lock lapsed extends the next holder's.
-- KEYS[1], ARGV[1] token, ARGV[2] TTL ms.
local token = redis.call('getex', KEYS[1], 'PX', ARGV[2])
if token == ARGV[1] then
  return 1
end
return 0
