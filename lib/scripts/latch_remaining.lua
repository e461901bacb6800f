-- latch (lockcheck::Latch) wait's poll. KEYS[1] the latch's hash (latch_count_down.lua); ARGV[1] the count.
-- Replies how many participants are still missing: the whole count while no one has counted down (a latch that
-- does not exist yet is closed, never open), 0 once open. A count that disagrees with the stored one is an error.
local count = tonumber(ARGV[1])
local stored = redis.call('HGET', KEYS[1], 'count')
if not stored then
  return count
end
if tonumber(stored) ~= count then
  return redis.error_reply('ERR latch ' .. KEYS[1] .. ' has count ' .. stored .. ', not ' .. ARGV[1])
end
local left = count - (redis.call('HLEN', KEYS[1]) - 1)
if left < 0 then
  left = 0
end
return left
