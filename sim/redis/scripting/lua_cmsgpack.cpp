#include "redis/scripting/lua_cmsgpack.hpp"

namespace lockcheck::mock {

// Redis 7.0 bundles lua-cmsgpack 0.4.0: numbers equal to an int64 pack as MessagePack integers, others as
// float32 when exact, else float64; a table whose keys are exactly 1..n packs as an array, any other as a
// map; tables nested 16 deep pack as nil (circular references terminate).
const char* const kLuaCmsgpack = R"lua(
local as_c_function = ...
-- `pairs` is looked up at each call: the prelude replaces it with the deterministic one.
local type, next, select, error = type, next, select, error
local char, byte, sub, pack, unpack = string.char, string.byte, string.sub, string.pack, string.unpack
local concat, floor, huge, table_unpack, tointeger = table.concat, math.floor, math.huge, table.unpack, math.tointeger
local max_nesting = 16
local two_63 = 9223372036854775808.0

local function is_int64(n) return n == n and n ~= huge and n ~= -huge and n == floor(n) and n >= -two_63 and n < two_63 end

local function encode_int(n, out)
  n = tointeger(n)
  if n >= 0 then
    if n <= 127 then out[#out + 1] = char(n)
    elseif n <= 0xff then out[#out + 1] = char(0xcc, n)
    elseif n <= 0xffff then out[#out + 1] = char(0xcd) .. pack('>I2', n)
    elseif n <= 0xffffffff then out[#out + 1] = char(0xce) .. pack('>I4', n)
    else out[#out + 1] = char(0xcf) .. pack('>i8', n) end
  else
    if n >= -32 then out[#out + 1] = pack('b', n)
    elseif n >= -128 then out[#out + 1] = char(0xd0) .. pack('b', n)
    elseif n >= -32768 then out[#out + 1] = char(0xd1) .. pack('>i2', n)
    elseif n >= -2147483648 then out[#out + 1] = char(0xd2) .. pack('>i4', n)
    else out[#out + 1] = char(0xd3) .. pack('>i8', n) end
  end
end

local function encode_length(n, small_tag, small_limit, tag16, tag32, out)
  if n < small_limit then out[#out + 1] = char(small_tag + n)
  elseif n <= 0xffff then out[#out + 1] = char(tag16) .. pack('>I2', n)
  else out[#out + 1] = char(tag32) .. pack('>I4', n) end
end

local encode
local function encode_table(t, level, out)
  local count, max = 0, 0
  local is_array = true
  for k in pairs(t) do
    if type(k) ~= 'number' or k <= 0 or k ~= floor(k) or k > 2147483647 then is_array = false break end
    if k > max then max = k end
    count = count + 1
  end
  if is_array and max == count then
    encode_length(count, 0x90, 16, 0xdc, 0xdd, out)
    for i = 1, count do encode(t[i], level + 1, out) end
    return
  end
  count = 0
  for _ in pairs(t) do count = count + 1 end
  encode_length(count, 0x80, 16, 0xde, 0xdf, out)
  for k, v in pairs(t) do
    encode(k, level + 1, out)
    encode(v, level + 1, out)
  end
end

encode = function(v, level, out)
  local t = type(v)
  if t == 'table' and level == max_nesting then t = 'nil' end
  if t == 'string' then
    local n = #v
    if n < 32 then out[#out + 1] = char(0xa0 + n)
    elseif n <= 0xff then out[#out + 1] = char(0xd9, n)
    elseif n <= 0xffff then out[#out + 1] = char(0xda) .. pack('>I2', n)
    else out[#out + 1] = char(0xdb) .. pack('>I4', n) end
    out[#out + 1] = v
  elseif t == 'boolean' then out[#out + 1] = char(v and 0xc3 or 0xc2)
  elseif t == 'number' then
    if is_int64(v) then encode_int(v, out)
    elseif v ~= v or unpack('>f', pack('>f', v)) == v then
      -- NaN fails the float32 round trip in C (NaN ~= NaN), so it is a float64 there too.
      if v ~= v then out[#out + 1] = char(0xcb) .. pack('>d', v) else out[#out + 1] = char(0xca) .. pack('>f', v) end
    else out[#out + 1] = char(0xcb) .. pack('>d', v) end
  elseif t == 'table' then encode_table(v, level, out)
  else out[#out + 1] = char(0xc0) end
end

local function pack_all(...)
  local n = select('#', ...)
  if n == 0 then error("bad argument #0 to 'pack' (MessagePack pack needs input.)", 0) end
  local out = {}
  for i = 1, n do encode((select(i, ...)), 0, out) end
  return concat(out)
end

-- Decoding: returns value, next position; raises 'missing' or 'bad' (turned into Redis's texts below).
local decode
local function need(s, at, n) if at + n - 1 > #s then error('missing', 0) end end
local function float(x) return x + 0.0 end
local function decode_sequence(s, at, n, as_map)
  local t = {}
  for i = 1, n do
    if as_map then
      local k, v
      k, at = decode(s, at)
      v, at = decode(s, at)
      if k ~= nil then t[k] = v end
    else
      t[i], at = decode(s, at)
    end
  end
  return t, at
end
local fixed = {
  [0xcc] = {1, 'B'}, [0xcd] = {2, '>I2'}, [0xce] = {4, '>I4'}, [0xd0] = {1, 'b'}, [0xd1] = {2, '>i2'},
  [0xd2] = {4, '>i4'}, [0xd3] = {8, '>i8'}, [0xca] = {4, '>f'}, [0xcb] = {8, '>d'},
}
decode = function(s, at)
  need(s, at, 1)
  local b = byte(s, at)
  if fixed[b] then
    local size, format = fixed[b][1], fixed[b][2]
    need(s, at + 1, size)
    return float((unpack(format, s, at + 1))), at + 1 + size
  end
  if b == 0xcf then
    need(s, at + 1, 8)
    local v = unpack('>i8', s, at + 1)
    if v < 0 then return float(v) + 18446744073709551616.0, at + 9 end
    return float(v), at + 9
  end
  if b == 0xc0 then return nil, at + 1 end
  if b == 0xc3 then return true, at + 1 end
  if b == 0xc2 then return false, at + 1 end
  local length_sizes = {[0xd9] = {1, 'B'}, [0xda] = {2, '>I2'}, [0xdb] = {4, '>I4'}, [0xdc] = {2, '>I2'},
                        [0xdd] = {4, '>I4'}, [0xde] = {2, '>I2'}, [0xdf] = {4, '>I4'}}
  local n
  if length_sizes[b] then
    need(s, at + 1, length_sizes[b][1])
    n = unpack(length_sizes[b][2], s, at + 1)
    at = at + 1 + length_sizes[b][1]
    if b <= 0xdb then
      need(s, at, n)
      return sub(s, at, at + n - 1), at + n
    end
    return decode_sequence(s, at, n, b >= 0xde)
  end
  if b < 0x80 then return float(b), at + 1 end
  if b >= 0xe0 then return float(b - 256), at + 1 end
  if b >= 0xa0 and b < 0xc0 then
    n = b - 0xa0
    need(s, at + 1, n)
    return sub(s, at + 1, at + n), at + 1 + n
  end
  if b >= 0x90 and b < 0xa0 then return decode_sequence(s, at + 1, b - 0x90, false) end
  if b >= 0x80 and b < 0x90 then return decode_sequence(s, at + 1, b - 0x80, true) end
  error('bad', 0)
end

-- Decodes up to `limit` values from `offset` (0-based); returns the values, the next offset or -1 when
-- `with_offset`. Every round consumes input, so the loop is bounded by the string's length.
local function unpack_from(s, limit, offset, with_offset)
  if type(s) ~= 'string' and type(s) ~= 'number' then
    error("bad argument #1 to 'unpack' (string expected, got " .. (s == nil and 'no value' or type(s)) .. ')', 0)
  end
  s = tostring(s)
  if offset < 0 or limit < 0 then
    error('Invalid request to unpack with offset of ' .. offset .. ' and limit of ' .. #s .. '.', 0)
  end
  if offset > #s then error('Start offset ' .. offset .. ' greater than input length ' .. #s .. '.', 0) end
  local values, count, at = {}, 0, offset + 1
  while at <= #s and count < limit do
    local ok, value, next_at = pcall(decode, s, at)
    if not ok then error(value == 'missing' and 'Missing bytes in input.' or 'Bad data format in input.', 0) end
    count = count + 1
    values[count] = value
    at = next_at
  end
  if with_offset then return (at > #s) and -1 or (at - 1), table_unpack(values, 1, count) end
  return table_unpack(values, 1, count)
end

return {
  pack = as_c_function(pack_all, true),
  unpack = as_c_function(function(s) return unpack_from(s, 2147483647, 0, false) end, true),
  unpack_one = as_c_function(function(s, offset) return unpack_from(s, 1, floor(offset or 0), true) end, true),
  unpack_limit = as_c_function(function(s, limit, offset)
    return unpack_from(s, floor(limit), floor(offset or 0), true)
  end, true),
  _NAME = 'cmsgpack', _VERSION = 'lua-cmsgpack 0.4.0', _COPYRIGHT = 'Copyright (C) 2012, Salvatore Sanfilippo',
  _DESCRIPTION = 'MessagePack C implementation for Lua',
}
)lua";

}  // namespace lockcheck::mock
