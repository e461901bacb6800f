#include "redis/scripting/lua_prelude.hpp"

namespace lockcheck::mock {

const char* const kLuaPrelude = R"lua(
local readonly_error, nonexistent_global, helpers = ...
local G = _G
local type, tonumber, tostring, select, pairs, setmetatable = type, tonumber, tostring, select, pairs, setmetatable
local floor, ceil, fmod, tointeger = math.floor, math.ceil, math.fmod, math.tointeger
local concat_operand = G.__lua51_concat_operand

-- Lua 5.1's library surface as Redis 7.0 has it: 5.1 names added, 5.2+ names removed.
G.unpack = table.unpack
table.unpack, table.pack, table.move = nil, nil, nil
string.pack, string.packsize, string.unpack = nil, nil, nil
coroutine.close, coroutine.isyieldable = nil, nil
local raw_len, raw_get, raw_set = rawlen, rawget, rawset
G.rawlen, G.warn = nil, nil
G._VERSION = 'Lua 5.1'
G.__lua51_vararg_table = function(...) return {n = select('#', ...), ...} end  -- lua51_rewrite.hpp's kVarargTable
table.getn = function(t) return #t end
table.setn = function() error("'setn' is obsolete", 2) end
table.maxn = function(t)
  local n = 0
  for k in pairs(t) do if type(k) == 'number' and k > n then n = k end end
  return n
end
table.foreach = function(t, f)
  for k, v in pairs(t) do local r = f(k, v) if r ~= nil then return r end end
end
table.foreachi = function(t, f)
  for i = 1, #t do local r = f(i, t[i]) if r ~= nil then return r end end
end
math.maxinteger, math.mininteger, math.tointeger, math.type, math.ult = nil, nil, nil, nil, nil
math.pow = function(x, y) return x ^ y end
math.mod = fmod
local log, exp = math.log, math.exp
math.log = function(x) return log(x) end  -- 5.1 has no base argument
math.log10 = function(x) return log(x, 10) end
math.ldexp = function(m, e) return m * 2.0 ^ e end
math.frexp = function(x)
  if x == 0 or x ~= x or x == math.huge or x == -math.huge then return x, 0 end
  local e = floor(log(x < 0 and -x or x, 2)) + 1
  local m = x / 2.0 ^ e
  if m >= 1 or m <= -1 then m, e = m / 2, e + 1 elseif m < 0.5 and m > -0.5 then m, e = m * 2, e - 1 end
  return m, e
end
math.atan2 = function(y, x) return math.atan(y, x) end
math.cosh = function(x) return (exp(x) + exp(-x)) / 2 end
math.sinh = function(x) return (exp(x) - exp(-x)) / 2 end
math.tanh = function(x)
  if x > 20 then return 1.0 elseif x < -20 then return -1.0 end
  local a, b = exp(x), exp(-x)
  return (a - b) / (a + b)
end
-- 5.1 numbers are doubles: results that 5.4 gives as integers come back as floats.
math.floor = function(x) return floor(x) + 0.0 end
math.ceil = function(x) return ceil(x) + 0.0 end
math.fmod = function(a, b) return fmod(tonumber(a) + 0.0, tonumber(b) + 0.0) end
math.mod = math.fmod
gcinfo = function() return floor(collectgarbage('count')) end

-- 5.1's string functions read a number argument as its "%.14g" text and truncate fractional counts and
-- positions; 5.4 prints "5.0" and refuses 2.5 ("number has no integer representation").
local function text(x) if type(x) == 'number' then return concat_operand(x) end return x end
local function whole(x)
  if type(x) ~= 'number' then return x end
  if x ~= x or x >= 9223372036854775807 or x < -9223372036854775807 then return -9223372036854775807 - 1 end
  return x >= 0 and floor(x) or ceil(x)
end
local s = string
local byte, find, gmatch, gsub, len, lower, match, rep, reverse, sub, upper, format =
  s.byte, s.find, s.gmatch, s.gsub, s.len, s.lower, s.match, s.rep, s.reverse, s.sub, s.upper, s.format
s.byte = function(x, i, j) return byte(text(x), whole(i), whole(j)) end
s.find = function(x, p, init, plain) return find(text(x), text(p), whole(init), plain) end
s.gmatch = function(x, p) return gmatch(text(x), text(p)) end
s.gfind = s.gmatch
s.gsub = function(x, p, r, n) return gsub(text(x), text(p), text(r), whole(n)) end
s.len = function(x) return len(text(x)) end
s.lower = function(x) return lower(text(x)) end
s.match = function(x, p, init) return match(text(x), text(p), whole(init)) end
s.rep = function(x, n) return rep(text(x), whole(n)) end  -- 5.1 has no separator argument
s.reverse = function(x) return reverse(text(x)) end
s.sub = function(x, i, j) return sub(text(x), whole(i), whole(j)) end
s.upper = function(x) return upper(text(x)) end
-- 5.1's format takes only strings and numbers for %s and %q (5.4 prints any value: "nil", "true") and
-- says "no value" for a missing argument of any conversion. Behind a C frame, so errors name the script line.
s.format = helpers.as_c_function(function(fmt, ...)
  local args = {...}
  local n, i, at = select('#', ...), 0, 1
  fmt = text(fmt)
  -- One conversion per round; bounded by the format's length.
  while at <= #fmt do
    local spec_start, spec_end, conversion = find(fmt, '%%[-+ #0]*%d*%.?%d*(.)', at)
    if not spec_start then break end
    if conversion ~= '%' then
      i = i + 1
      if i > n then error(("bad argument #%d to 'format' (no value)"):format(i + 1), 0) end
      do
        if conversion == 'd' or conversion == 'i' or conversion == 'c' or conversion == 'o' or
           conversion == 'u' or conversion == 'x' or conversion == 'X' then
          local v = tonumber(args[i])
          if v then args[i] = whole(v) end
        elseif conversion == 's' or conversion == 'q' then
          local kind = type(args[i])
          if kind ~= 'string' and kind ~= 'number' then
            error(("bad argument #%d to 'format' (string expected, got %s)"):format(i + 1, kind), 0)
          end
          args[i] = text(args[i])
        end
      end
    end
    at = spec_end + 1
  end
  -- 5.4's own argument errors carry the prelude's position; the C frame around adds the script's.
  local ok, result = pcall(format, fmt, G.unpack(args, 1, n))
  if not ok then error((gsub(result, '^[^:]*:%d+: ', '')), 0) end
  return result
end, true)
-- luaL_checkint: a number or a numeric string, truncated to int64 and then to a C int as x86-64 does
-- (2^32 + 1 -> 1; nan and values past int64 -> 0). 5.4 refuses fractions ("no integer representation").
local function checkint(v, position, fname, present)
  local x = tonumber(v)
  if x == nil or (type(v) ~= 'number' and type(v) ~= 'string') then
    local got = present and type(v) or 'no value'
    error(("bad argument #%d to '%s' (number expected, got %s)"):format(position, fname, got), 0)
  end
  if x ~= x or x >= 9223372036854775807 or x < -9223372036854775807 then return 0 end
  x = tointeger(x >= 0 and floor(x) or ceil(x)) & 0xffffffff
  if x >= 2147483648 then x = x - 4294967296 end
  return x
end
-- 5.1's table.insert works on the raw table and grows it to any position (5.4: "position out of bounds").
local proxied = setmetatable({}, {__mode = 'k'})  -- read-only proxy -> the table it guards (see protect)
table.insert = helpers.as_c_function(function(...)
  local n = select('#', ...)
  local t, a, b = ...
  if type(t) ~= 'table' then
    error(("bad argument #1 to 'insert' (table expected, got %s)"):format(n == 0 and 'no value' or type(t)), 0)
  end
  if proxied[t] then error({err = 'ERR Attempt to modify a readonly table'}, 0) end  -- no position, as Redis
  local last = raw_len(t) + 1
  if n == 2 then raw_set(t, last, a) return end
  if n ~= 3 then error("wrong number of arguments to 'insert'", 0) end
  local pos = checkint(a, 2, 'insert', true)
  if pos > last then last = pos end
  for i = last, pos + 1, -1 do raw_set(t, i, raw_get(t, i - 1)) end
  raw_set(t, pos, b)
end, true)
-- 5.1's math.random truncates its bounds (checkint) and answers a double.
local raw_random = math.random
math.random = helpers.as_c_function(function(...)
  local n = select('#', ...)
  if n == 0 then return raw_random() end
  if n > 2 then error('wrong number of arguments', 0) end
  local a, b = ...
  local low, high = 1, checkint(a, 1, 'random', true)
  if n == 2 then low, high = high, checkint(b, 2, 'random', true) end
  if low > high then error(("bad argument #%d to 'random' (interval is empty)"):format(n), 0) end
  return raw_random(low, high) + 0.0
end, true)
local table_concat = table.concat
table.concat = function(t, sep, i, j)
  i = whole(i) or 1
  j = whole(j) or #t
  local parts = {}
  for k = i, j do parts[k - i + 1] = text(t[k]) end
  return table_concat(parts, text(sep) or '', 1, j - i + 1)
end
-- pairs in a deterministic order. Lua 5.4 seeds its string hash from the clock and addresses, so raw
-- traversal order over string keys changes from process to process, and a simulated run would not replay
-- byte for byte. Numbers come first in ascending order (5.1's array part), then booleans, then strings in
-- byte order; keys of other types keep traversal order. 5.1's own order is not reproduced (README).
local raw_next, sort = next, table.sort
local type_rank = {number = 1, boolean = 2, string = 3}
local function key_less(a, b)
  local ra, rb = type_rank[type(a)] or 4, type_rank[type(b)] or 4
  if ra ~= rb then return ra < rb end
  if ra == 1 or ra == 3 then return a < b end
  if ra == 2 then return (not a) and b end
  return false
end
local function ordered_pairs(t, traverse)
  local keys, n = {}, 0
  for k in traverse, t do n = n + 1 keys[n] = k end
  sort(keys, key_less)
  local i = 0
  return function()
    i = i + 1
    local k = keys[i]
    if k == nil then return nil end
    return k, t[k]
  end, t, nil
end
G.pairs = function(t)  -- 5.1's pairs has no __pairs metamethod
  if type(t) ~= 'table' then error("bad argument #1 to 'pairs' (table expected, got " .. (t == nil and 'no value' or type(t)) .. ')', 2) end
  return ordered_pairs(proxied[t] or t, raw_next)
end
-- Redis's read-only tables are the tables themselves; here they are proxies (protect below), so the raw
-- readers look through a proxy to its table: rawget(_G, 'redis') and next(string) see what Redis shows.
local function raw_reader(name, read)
  return helpers.as_c_function(function(t, ...)
    if type(t) ~= 'table' then
      error(("bad argument #1 to '%s' (table expected, got %s)"):format(name, t == nil and 'nil' or type(t)), 0)
    end
    return read(proxied[t] or t, ...)
  end, true)
end
G.rawget = raw_reader('rawget', raw_get)
G.next = raw_reader('next', raw_next)
local raw_running = coroutine.running
coroutine.running = function()
  local co, main = raw_running()
  if main then return nil end
  return co
end
local raw_xpcall = xpcall
xpcall = function(f, handler) return raw_xpcall(f, handler) end

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
  proxied[proxy] = t
  protected[proxy] = true
  return proxy
end
for _, name in ipairs({'string', 'table', 'math', 'coroutine', 'bit', 'redis', 'cjson', 'cmsgpack', 'struct'}) do G[name] = protect(G[name]) end
getmetatable('').__index = G.string  -- ("x"):rep(2.5) uses the 5.1 versions too
local env = protect(G)
-- Redis's tables are read-only through every door: setmetatable on them, and the metatable getmetatable
-- gives for them, fail like a write.
local raw_setmetatable, raw_getmetatable = setmetatable, getmetatable
local readonly_metatable = protect({})
G.setmetatable = helpers.as_c_function(function(t, mt)
  if protected[t] or t == G then error('Attempt to modify a readonly table', 0) end
  return raw_setmetatable(t, mt)
end, false)
G.getmetatable = function(t)
  if protected[t] or t == G then return readonly_metatable end
  return raw_getmetatable(t)
end
local raw_load, raw_rawset, compile = load, rawset, helpers.compile
-- 5.1: load takes a reader function; loadstring compiles text (checked and rewritten as EVAL is).
load = helpers.make_load(env)
loadstring = function(source, name) return compile(text(source), name, env) end
rawset = helpers.as_c_function(function(t, k, v)
  if protected[t] or t == G then error('Attempt to modify a readonly table', 0) end
  return raw_rawset(t, k, v)
end, false)
G._G = env
setmetatable(G, {__index = nonexistent_global, __newindex = readonly_error, __metatable = false})
return env
)lua";

}  // namespace lockcheck::mock
