-- rw-two-keys read acquire (DELIBERATELY BROKEN variant). KEYS[1] the read key (reader count); KEYS[2] the
-- write key; ARGV[1] ttl ms. A writer in: 0. Otherwise INCR the reader count and PEXPIRE the read key: 1.
if redis.call('EXISTS', KEYS[2]) == 1 then
  return 0
end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
