-- Uses Lua 5.4's integer division, which Redis (Lua 5.1) cannot compile: lockcheck rejects it up front.
local half_ttl = ARGV[2] // 2
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', half_ttl * 2) then return 1 end
return 0
