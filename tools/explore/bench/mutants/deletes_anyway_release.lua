-- Mutant: compare-and-delete whose "else" branch also deletes ("clean up a stuck lock"). KEYS[1], ARGV[1] token.
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
redis.call('del', KEYS[1])
return 0
