#include "redis/scripting/lua_struct.hpp"

namespace lockcheck::mock {

// Follows lua_struct.c: x86-64 sizes (short 2, long 8, size_t 8, int 4), native order little-endian,
// integers up to 32 bytes through a 64-bit unsigned value, '!' alignment capped at 8.
const char* const kLuaStruct = R"lua(
local as_c_function = ...
local type, error, tonumber, select = type, error, tonumber, select
local char, byte, sub, find, spack, sunpack = string.char, string.byte, string.sub, string.find, string.pack, string.unpack
local concat, floor, ceil, tointeger = table.concat, math.floor, math.ceil, math.tointeger
local table_unpack = table.unpack
local sizes = {b = 1, B = 1, h = 2, H = 2, l = 8, L = 8, T = 8, f = 4, d = 8, x = 1}
local max_int_size, max_align = 32, 8

-- Reads the option at `at` (1-based) and its number; returns option, size, next position.
local function option(fmt, at)
  local opt = sub(fmt, at, at)
  local digits = string.match(fmt, '^%d+', at + 1)
  local next_at = at + 1 + (digits and #digits or 0)
  local n = digits and tointeger(tonumber(digits))
  if n and n > 2147483647 then error('integral size overflow', 0) end
  if sizes[opt] then return opt, sizes[opt], at + 1 end
  if opt == 'c' then return opt, n or 1, next_at end
  if opt == 'i' or opt == 'I' then
    n = n or 4
    if n > max_int_size then error('integral size ' .. n .. ' is larger than limit of ' .. max_int_size, 0) end
    return opt, n, next_at
  end
  if opt == '!' then return opt, n or max_align, next_at end
  return opt, 0, at + 1
end

local function control(opt, size, state)
  if opt == ' ' then return end
  if opt == '>' then state.big = true return end
  if opt == '<' then state.big = false return end
  if opt == '!' then
    if size == 0 or size & (size - 1) ~= 0 then error('alignment ' .. size .. ' is not a power of 2', 0) end
    state.align = size
    return
  end
  error("bad argument #1 to '" .. state.name .. "' (invalid format option '" .. opt .. "')", 0)
end

local function padding(len, state, opt, size)
  if size == 0 or opt == 'c' or not (sizes[opt] or opt == 'i' or opt == 'I') then return 0 end
  if size > state.align then size = state.align end
  return (size - (len & (size - 1))) & (size - 1)
end

local function to_uint64(n)
  n = tonumber(n)
  if not n then error("bad argument to 'pack' (number expected)", 0) end
  if n < 0 then return tointeger(ceil(n)) or 0 end
  if n >= 9223372036854775808.0 then return tointeger(n - 18446744073709551616.0) or 0 end
  return tointeger(floor(n)) or 0
end

local function pack(fmt, ...)
  local args, arg, out, total = {...}, 1, {}, 0
  local state = {big = false, align = 1, name = 'pack'}
  local at = 1
  while at <= #fmt do
    local opt, size
    opt, size, at = option(fmt, at)
    local pad = padding(total, state, opt, size)
    if pad > 0 then out[#out + 1] = string.rep('\0', pad) end
    total = total + pad
    if opt == 'b' or opt == 'B' or opt == 'h' or opt == 'H' or opt == 'l' or opt == 'L' or opt == 'T' or
       opt == 'i' or opt == 'I' then
      local v, bytes = to_uint64(args[arg]), {}
      arg = arg + 1
      for i = 1, size do bytes[i] = v & 0xff v = v >> 8 end
      if state.big then for i = 1, size // 2 do bytes[i], bytes[size + 1 - i] = bytes[size + 1 - i], bytes[i] end end
      out[#out + 1] = char(table_unpack(bytes, 1, size))
    elseif opt == 'x' then out[#out + 1] = '\0'
    elseif opt == 'f' or opt == 'd' then
      out[#out + 1] = spack((state.big and '>' or '<') .. opt, tonumber(args[arg]) or 0)
      arg = arg + 1
    elseif opt == 'c' or opt == 's' then
      local s = args[arg]
      if type(s) == 'number' then s = tostring(s) end
      if type(s) ~= 'string' then error("bad argument #" .. (arg + 1) .. " to 'pack' (string expected, got " .. type(s) .. ')', 0) end
      arg = arg + 1
      if opt == 's' or size == 0 then size = #s end
      if #s < size then error("bad argument #" .. arg + 1 .. " to 'pack' (string too short)", 0) end
      out[#out + 1] = sub(s, 1, size)
      if opt == 's' then out[#out + 1] = '\0' size = size + 1 end
    else
      control(opt, size, state)
      size = 0
    end
    total = total + size
  end
  return concat(out)
end

local function unpack(fmt, data, init)
  local pos = floor(tonumber(init) or 1)
  if pos <= 0 then error("bad argument #3 to 'unpack' (offset must be 1 or greater)", 0) end
  pos = pos - 1
  local results, n = {}, 0
  local state = {big = false, align = 1, name = 'unpack'}
  local at = 1
  while at <= #fmt do
    local opt, size
    opt, size, at = option(fmt, at)
    pos = pos + padding(pos, state, opt, size)
    if size > #data or pos > #data - size then error("bad argument #2 to 'unpack' (data string too short)", 0) end
    if opt == 'b' or opt == 'B' or opt == 'h' or opt == 'H' or opt == 'l' or opt == 'L' or opt == 'T' or
       opt == 'i' or opt == 'I' then
      local l = 0
      for i = 1, size do
        local index = state.big and (pos + i) or (pos + size + 1 - i)
        l = (l << 8) | byte(data, index)
      end
      local signed = opt == 'b' or opt == 'h' or opt == 'l' or opt == 'i'
      if signed and size < 8 then
        local mask = -1 << (size * 8 - 1)
        if l & mask ~= 0 then l = l | mask end
      end
      if not signed and l < 0 then n = n + 1 results[n] = l + 18446744073709551616.0
      else n = n + 1 results[n] = l + 0.0 end
    elseif opt == 'f' or opt == 'd' then
      n = n + 1
      results[n] = sunpack((state.big and '>' or '<') .. opt, data, pos + 1) + 0.0
    elseif opt == 'c' then
      if size == 0 then
        if n == 0 or type(results[n]) ~= 'number' then error("format 'c0' needs a previous size", 0) end
        size = floor(results[n])
        n = n - 1
        if size > #data or pos > #data - size then error("bad argument #2 to 'unpack' (data string too short)", 0) end
      end
      n = n + 1
      results[n] = sub(data, pos + 1, pos + size)
    elseif opt == 's' then
      local zero = find(data, '\0', pos + 1, true)
      if not zero then error('unfinished string in data', 0) end
      size = zero - pos
      n = n + 1
      results[n] = sub(data, pos + 1, zero - 1)
    elseif opt ~= 'x' then
      control(opt, size, state)
      size = 0
    end
    pos = pos + size
  end
  n = n + 1
  results[n] = pos + 1
  return table_unpack(results, 1, n)
end

local function size_of(fmt)
  local pos, at = 0, 1
  local state = {big = false, align = 1, name = 'size'}
  while at <= #fmt do
    local opt, size
    opt, size, at = option(fmt, at)
    pos = pos + padding(pos, state, opt, size)
    if opt == 's' then error("bad argument #1 to 'size' (option 's' has no fixed size)", 0) end
    if opt == 'c' and size == 0 then error("bad argument #1 to 'size' (option 'c0' has no fixed size)", 0) end
    if not find(opt, '%w') then control(opt, size, state) size = 0 end
    pos = pos + size
  end
  return pos
end

return {pack = as_c_function(pack, true), unpack = as_c_function(unpack, true), size = as_c_function(size_of, true)}
)lua";

}  // namespace lockcheck::mock
