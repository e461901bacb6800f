-- latch (lockcheck::Latch) count_down, safe to retry. KEYS[1] the latch's hash: field "count" = how many
-- participants open it, one field "p:<id>" per participant that counted down. ARGV[1] the count; ARGV[2] the
-- participant id (a count_down's own random id, the same on each of its retries); ARGV[3] how long the state is
-- kept after the last count_down, in ms. The first count_down creates the latch; a participant already recorded
-- (a retry after a lost reply) changes nothing. The state stays after the latch opens, so an open latch reads
-- open (never "no latch") until it expires. A count that disagrees with the stored one is an error.
-- Replies how many participants are still missing (0: open).
local count = tonumber(ARGV[1])
local stored = redis.call('HGET', KEYS[1], 'count')
if stored and tonumber(stored) ~= count then
  return redis.error_reply('ERR latch ' .. KEYS[1] .. ' has count ' .. stored .. ', not ' .. ARGV[1])
end
if not stored then
  redis.call('HSET', KEYS[1], 'count', count)
end
redis.call('HSETNX', KEYS[1], 'p:' .. ARGV[2], 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
local left = count - (redis.call('HLEN', KEYS[1]) - 1)
if left < 0 then
  left = 0
end
return left
