-- rw-two-keys write acquire (DELIBERATELY BROKEN variant). KEYS[1] the read key (reader count); KEYS[2] the
-- write key; ARGV[1] token; ARGV[2] ttl ms. Already ours (retry after a lost reply): 1. Readers in (the read
-- key exists): 0. Otherwise SET the write key NX PX: 1 when it was free, else 0.
if redis.call('GET', KEYS[2]) == ARGV[1] then
  return 1
end
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 1
end
return 0
