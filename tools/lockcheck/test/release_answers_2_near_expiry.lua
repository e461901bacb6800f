-- Breaks the script contract only where the probe cannot see it: answers 2 ("released late") when the lock it
-- releases had less than a second left. The probe's key has a TTL of exactly 1000 ms on a clock that stands
-- still, so only a run reaches the branch, and the run must stop on it (exit 2), naming this file and the 2.
if redis.call('get', KEYS[1]) == ARGV[1] then
  local late = redis.call('pttl', KEYS[1]) < 1000
  redis.call('del', KEYS[1])
  if late then return 2 end
  return 1
end
return 0
