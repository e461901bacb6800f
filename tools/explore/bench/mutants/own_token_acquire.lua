-- Mutant: an "idempotent" acquire. A retry whose first attempt's reply was lost finds its own token in the key
-- and answers yes, but leaves the TTL the first attempt set. The caller counts its validity from the retry, so
-- it believes the lease runs longer than the key lives. KEYS[1], ARGV[1] token, ARGV[2] TTL ms.
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 1
end
if redis.call('get', KEYS[1]) == ARGV[1] then
  return 1
end
return 0
