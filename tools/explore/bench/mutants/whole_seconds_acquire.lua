-- Mutant: an acquire that sets the TTL in whole seconds (EX), the caller's milliseconds rounded down: right for
-- 1000 or 2000 ms, but a 1500 ms lock's key lives 1000 ms, and expires while its holder still has a validity
-- of nearly 1.5 s. KEYS[1], ARGV[1] token, ARGV[2] TTL ms.
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'EX', math.floor(tonumber(ARGV[2]) / 1000)) then
  return 1
end
return 0
