-- A user's renew with a different bug: it checks the owner, then "refreshes" the key with SET ... XX, which
-- keeps the value but DISCARDS the key's TTL (SET keeps it only with KEEPTTL, or sets a new one with PX).
-- After the first renewal the lock key never expires: a holder that dies holds it forever.
-- KEYS[1] lock key, ARGV[1] token, ARGV[2] TTL in ms (unused: that is the bug).
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('set', KEYS[1], ARGV[1], 'XX')
  return 1
end
return 0
