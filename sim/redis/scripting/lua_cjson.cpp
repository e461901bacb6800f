#include "redis/scripting/lua_cjson.hpp"

namespace lockcheck::mock {

// Redis 7.0 bundles lua-cjson 2.1.0 with its defaults: numbers with "%.14g", '/' escaped as "\/", sparse
// arrays refused past ratio 2 / safe 10, nesting refused past 1000, cjson.null a NULL lightuserdata.
const char* const kLuaCjson = R"lua(
local null, concat_operand, as_c_function = ...
-- `pairs` is looked up at each call: the prelude replaces it with the deterministic one.
local type, next, tostring, error, select = type, next, tostring, error, select
local byte, char, find, format, gsub, sub = string.byte, string.char, string.find, string.format, string.gsub, string.sub
local concat, floor = table.concat, math.floor
-- The settings, kept in the Lua state across scripts as Redis keeps them.
local config = {encode_max_depth = 1000, decode_max_depth = 1000, encode_number_precision = 14,
                sparse_convert = false, sparse_ratio = 2, sparse_safe = 10, invalid_numbers = false}
local function format_number(v)
  if config.encode_number_precision == 14 then return concat_operand(v) end
  return format('%.' .. config.encode_number_precision .. 'g', v)
end

local escapes = {['"'] = '\\"', ['\\'] = '\\\\', ['/'] = '\\/', ['\b'] = '\\b', ['\f'] = '\\f',
                 ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t'}
local function escape(s)
  return '"' .. gsub(s, '[%c"\\/]', function(c) return escapes[c] or format('\\u%04x', byte(c)) end) .. '"'
end

local encode_value
local function encode_table(t, depth, out)
  if depth > config.encode_max_depth then error('Cannot serialise, excessive nesting (' .. depth .. ')', 0) end
  -- An array when every key is a positive integer; cjson's sparse-array rule (ratio 2, safe 10).
  local max, count, is_array = 0, 0, true
  for k in pairs(t) do
    if type(k) == 'number' and k > 0 and k == floor(k) then
      if k > max then max = k end
      count = count + 1
    else
      is_array = false
      break
    end
  end
  local excessively_sparse = config.sparse_ratio > 0 and max > config.sparse_safe and max > count * config.sparse_ratio
  if is_array and excessively_sparse and config.sparse_convert then is_array = false end
  if is_array and max > 0 then
    if excessively_sparse then error('Cannot serialise table: excessively sparse array', 0) end
    out[#out + 1] = '['
    for i = 1, max do
      if i > 1 then out[#out + 1] = ',' end
      encode_value(t[i], depth + 1, out)
    end
    out[#out + 1] = ']'
    return
  end
  out[#out + 1] = '{'
  local first = true
  for k, v in pairs(t) do
    local key_type = type(k)
    if key_type == 'number' then k = format_number(k)
    elseif key_type ~= 'string' then error('Cannot serialise ' .. key_type .. ': table key must be a number or string', 0) end
    if not first then out[#out + 1] = ',' end
    first = false
    out[#out + 1] = escape(k)
    out[#out + 1] = ':'
    encode_value(v, depth + 1, out)
  end
  out[#out + 1] = '}'
end

encode_value = function(v, depth, out)
  local t = type(v)
  if t == 'string' then out[#out + 1] = escape(v)
  elseif t == 'number' then
    local invalid = v ~= v or v == math.huge or v == -math.huge
    if invalid and not config.invalid_numbers then error('Cannot serialise number: must not be NaN or Inf', 0) end
    if invalid and config.invalid_numbers == 'null' then out[#out + 1] = 'null'
    elseif v ~= v then out[#out + 1] = 'nan'
    else out[#out + 1] = format_number(v) end
  elseif t == 'boolean' then out[#out + 1] = tostring(v)
  elseif t == 'nil' or v == null then out[#out + 1] = 'null'
  elseif t == 'table' then encode_table(v, depth, out)
  else error('Cannot serialise ' .. t .. ': type not supported', 0) end
end

local function encode(...)
  if select('#', ...) ~= 1 then error("bad argument #1 to 'encode' (expected 1 argument)", 0) end
  local out = {}
  encode_value((...), 1, out)
  return concat(out)
end

-- Decoding: a recursive descent over the text; every step consumes input, depth is bounded.
local decode_value
-- cjson names the token it found: "Expected colon but found T_NUMBER at character 6".
local token_names = {['{'] = 'T_OBJ_BEGIN', ['}'] = 'T_OBJ_END', ['['] = 'T_ARR_BEGIN', [']'] = 'T_ARR_END',
                     [','] = 'T_COMMA', [':'] = 'T_COLON', ['"'] = 'T_STRING'}
local function token_name(text, at)
  local c = sub(text, at, at)
  if c == '' then return 'T_END' end
  if token_names[c] then return token_names[c] end
  if find(c, '[%d%-]') then return 'T_NUMBER' end
  if sub(text, at, at + 3) == 'true' or sub(text, at, at + 4) == 'false' then return 'T_BOOLEAN' end
  if sub(text, at, at + 3) == 'null' then return 'T_NULL' end
  return 'invalid token'
end
local function decode_error(what, text, at)
  error('Expected ' .. what .. ' but found ' .. token_name(text, at) .. ' at character ' .. at, 0)
end
local function skip_space(text, at) return (find(text, '[^ \t\r\n]', at)) or #text + 1 end

local function utf8_of(code)
  if code < 0x80 then return char(code) end
  if code < 0x800 then return char(0xC0 + floor(code / 64), 0x80 + code % 64) end
  if code < 0x10000 then return char(0xE0 + floor(code / 4096), 0x80 + floor(code / 64) % 64, 0x80 + code % 64) end
  return char(0xF0 + floor(code / 262144), 0x80 + floor(code / 4096) % 64, 0x80 + floor(code / 64) % 64, 0x80 + code % 64)
end

local simple_escapes = {['"'] = '"', ['\\'] = '\\', ['/'] = '/', b = '\b', f = '\f', n = '\n', r = '\r', t = '\t'}
local function decode_string(text, at)
  local parts, from = {}, at + 1
  while true do
    local stop = find(text, '["\\]', from)
    if not stop then decode_error('value', text, at) end
    parts[#parts + 1] = sub(text, from, stop - 1)
    if sub(text, stop, stop) == '"' then return concat(parts), stop + 1 end
    local e = sub(text, stop + 1, stop + 1)
    if simple_escapes[e] then
      parts[#parts + 1] = simple_escapes[e]
      from = stop + 2
    elseif e == 'u' then
      local code = tonumber(sub(text, stop + 2, stop + 5), 16)
      if not code then decode_error('value', text, at) end
      from = stop + 6
      if code >= 0xD800 and code < 0xDC00 and sub(text, from, from + 1) == '\\u' then
        local low = tonumber(sub(text, from + 2, from + 5), 16)
        if low and low >= 0xDC00 and low < 0xE000 then
          code = 0x10000 + (code - 0xD800) * 1024 + (low - 0xDC00)
          from = from + 6
        end
      end
      parts[#parts + 1] = utf8_of(code)
    else
      decode_error('value', text, at)
    end
  end
end

-- Items separated by ',' up to `close` (the opener is at `at`); each round consumes an item, so the loop
-- is bounded by the text's length. Returns the position after `close`.
local function decode_items(text, at, close, what, item)
  at = skip_space(text, at + 1)
  if sub(text, at, at) == close then return at + 1 end
  while true do
    at = skip_space(text, item(at))
    local sep = sub(text, at, at)
    if sep == close then return at + 1 end
    if sep ~= ',' then decode_error('comma or ' .. what .. ' end', text, at) end
    at = at + 1
  end
end

decode_value = function(text, at, depth)
  at = skip_space(text, at)
  local c = sub(text, at, at)
  if (c == '{' or c == '[') and depth > config.decode_max_depth then
    error('Found too many nested data structures (' .. depth .. ') at character ' .. at, 0)
  end
  if c == '"' then return decode_string(text, at) end
  if c == '{' then
    local object = {}
    return object, decode_items(text, at, '}', 'object', function(item_at)
      item_at = skip_space(text, item_at)
      if sub(text, item_at, item_at) ~= '"' then decode_error('object key string', text, item_at) end
      local key
      key, item_at = decode_string(text, item_at)
      item_at = skip_space(text, item_at)
      if sub(text, item_at, item_at) ~= ':' then decode_error('colon', text, item_at) end
      object[key], item_at = decode_value(text, item_at + 1, depth + 1)
      return item_at
    end)
  end
  if c == '[' then
    local array = {}
    return array, decode_items(text, at, ']', 'array', function(item_at)
      array[#array + 1], item_at = decode_value(text, item_at, depth + 1)
      return item_at
    end)
  end
  local literal = sub(text, at, at + 3)
  if literal == 'true' then return true, at + 4 end
  if literal == 'null' then return null, at + 4 end
  if sub(text, at, at + 4) == 'false' then return false, at + 5 end
  local number_end = find(text, '[^%w%.%+%-]', at) or #text + 1
  local number = tonumber(sub(text, at, number_end - 1))
  if number and find(sub(text, at, at), '[%d%-]') then return number, number_end end
  decode_error('value', text, at)
end

local function decode(text)
  if type(text) ~= 'string' then error("bad argument #1 to 'decode' (string expected, got " .. type(text) .. ')', 0) end
  local value, at = decode_value(text, 1, 1)
  at = skip_space(text, at)
  if at <= #text then decode_error('the end', text, at) end
  return value
end

-- cjson.encode_max_depth([n]) and friends: set when given, and return the setting.
local function integer_setting(name, low, high)
  return function(value)
    if value ~= nil then
      value = tonumber(value)
      if not value or value < low or value > high or value ~= floor(value) then
        error("bad argument #1 to '" .. name .. "' (expected integer between " .. low .. ' and ' .. high .. ')', 0)
      end
      config[name] = floor(value)
    end
    return config[name]
  end
end
local function constant(value) return function() return value end end
return {
  -- C entry points, so errors carry the caller's position ("user_script:1: Cannot serialise ...").
  encode = as_c_function(encode, true), decode = as_c_function(decode, true), null = null, _NAME = 'cjson', _VERSION = '2.1.0',
  new = function() error('cjson.new is not available in the lockcheck mock', 2) end,
  encode_max_depth = as_c_function(integer_setting('encode_max_depth', 1, 2147483647), true),
  decode_max_depth = as_c_function(integer_setting('decode_max_depth', 1, 2147483647), true),
  encode_number_precision = as_c_function(integer_setting('encode_number_precision', 1, 14), true),
  encode_sparse_array = function(convert, ratio, safe)
    if convert ~= nil then config.sparse_convert = convert and true or false end
    if ratio ~= nil then config.sparse_ratio = tonumber(ratio) end
    if safe ~= nil then config.sparse_safe = tonumber(safe) end
    return config.sparse_convert, config.sparse_ratio, config.sparse_safe
  end,
  encode_invalid_numbers = function(setting)
    if setting ~= nil then config.invalid_numbers = setting == 'null' and 'null' or (setting and true or false) end
    return config.invalid_numbers
  end,
  encode_keep_buffer = constant(true),
  decode_invalid_numbers = constant(true),
}
)lua";

}  // namespace lockcheck::mock
