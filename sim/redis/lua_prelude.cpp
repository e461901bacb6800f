#include "lua_prelude.hpp"

namespace lockcheck::mock {

const char* const kLuaPrelude = R"lua(
local readonly_error, nonexistent_global = ...
local G = _G
local type, tonumber, select, pairs, setmetatable = type, tonumber, select, pairs, setmetatable
local floor, fmod, tointeger = math.floor, math.fmod, math.tointeger

-- Lua 5.1 names that Redis scripts still use.
G.unpack = table.unpack
table.getn = function(t) return #t end
table.maxn = function(t)
  local n = 0
  for k in pairs(t) do if type(k) == 'number' and k > n then n = k end end
  return n
end
math.pow = function(x, y) return x ^ y end
math.mod = math.fmod
math.log10 = function(x) return math.log(x, 10) end
math.ldexp = function(m, e) return m * 2.0 ^ e end
gcinfo = function() return floor(collectgarbage('count')) end

-- LuaBitOp as Redis ships it: 32-bit signed results.
local function tobit(x)
  local n = floor(tonumber(x)) % 4294967296
  n = tointeger(n) or 0
  if n >= 2147483648 then n = n - 4294967296 end
  return n
end
local function fold(op)
  return function(x, ...)
    local acc = tobit(x)
    for i = 1, select('#', ...) do acc = op(acc, tobit((select(i, ...)))) end
    return tobit(acc)
  end
end
bit = {
  tobit = tobit,
  band = fold(function(a, b) return a & b end),
  bor = fold(function(a, b) return a | b end),
  bxor = fold(function(a, b) return a ~ b end),
  bnot = function(x) return tobit(~tobit(x)) end,
  lshift = function(x, n) return tobit((tobit(x) & 0xffffffff) << (tobit(n) & 31)) end,
  rshift = function(x, n) return tobit((tobit(x) & 0xffffffff) >> (tobit(n) & 31)) end,
  arshift = function(x, n) return tobit(tobit(x) // (1 << (tobit(n) & 31))) end,
  rol = function(x, n) local v, s = tobit(x) & 0xffffffff, tobit(n) & 31 return tobit((v << s) | (v >> (32 - s))) end,
  ror = function(x, n) local v, s = tobit(x) & 0xffffffff, tobit(n) & 31 return tobit((v >> s) | (v << (32 - s))) end,
  bswap = function(x)
    local v = tobit(x) & 0xffffffff
    return tobit(((v & 0xff) << 24) | ((v & 0xff00) << 8) | ((v >> 8) & 0xff00) | (v >> 24))
  end,
  tohex = function(x, n)
    n = n and tobit(n) or 8
    local upper = n < 0
    if upper then n = -n end
    if n > 8 then n = 8 end
    local s = string.format(upper and '%08X' or '%08x', tobit(x) & 0xffffffff)
    return s:sub(9 - n)
  end,
}

-- Deterministic math.random: the simulator's runs must not depend on Lua's random start-up seed.
math.randomseed(0)

-- What Redis removes from the environment.
print, dofile, loadfile, require, collectgarbage = nil, nil, nil, nil, collectgarbage

-- The sandbox. Library tables become read-only proxies; the globals table errors on unknown names;
-- scripts see a proxy _ENV whose writes fail, as Redis 7.0's read-only globals do.
local protected = setmetatable({}, {__mode = 'k'})
local function protect(t)
  local proxy = setmetatable({}, {__index = t, __newindex = readonly_error, __metatable = false})
  protected[proxy] = true
  return proxy
end
for _, name in ipairs({'string', 'table', 'math', 'coroutine', 'bit', 'redis'}) do G[name] = protect(G[name]) end
local env = protect(G)
local raw_load, raw_rawset = load, rawset
load = function(chunk, name) return raw_load(chunk, name, 't', env) end
loadstring = load
rawset = function(t, k, v)
  if protected[t] or t == G then error('Attempt to modify a readonly table', 2) end
  return raw_rawset(t, k, v)
end
G._G = env
setmetatable(G, {__index = nonexistent_global, __newindex = readonly_error, __metatable = false})
return env
)lua";

}  // namespace lockcheck::mock
