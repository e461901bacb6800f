-- Mutant: seconds where milliseconds were meant (EX instead of PX): a 1000 ms TTL becomes 1000 s, so a dead
-- holder blocks everyone for far longer than the TTL. KEYS[1], ARGV[1] token, ARGV[2] TTL in ms.
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2]) then
  return 1
end
return 0
