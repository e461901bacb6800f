#include "redis/scripting/lua_convert.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <lua.hpp>
#include <string>
#include <tuple>
#include <utility>

#include "redis/util/numbers.hpp"

namespace lockcheck::mock {
namespace {

// Replies nest only as deep as Redis produces (a few levels); tables nested deeper than this are
// refused rather than risking the C stack.
constexpr int kMaxDepth = 100;

// Lua 5.1 holds every number as a double, and so does the mock's engine (lua51_rewrite.hpp).
void push_redis_integer(lua_State* L, std::int64_t value) { lua_pushnumber(L, static_cast<lua_Number>(value)); }

// {field = text}, Redis's wrapping of status replies ("ok") and big numbers.
void push_wrapped_string(lua_State* L, const char* field, const std::string& text) {
  lua_createtable(L, 0, 1);
  lua_pushlstring(L, text.data(), text.size());
  lua_setfield(L, -2, field);
}

std::string spaces_for_newlines(std::string text) {
  for (char& c : text) {
    if (c == '\r' || c == '\n') c = ' ';
  }
  return text;
}

Reply to_reply_at(lua_State* L, std::string_view sha, bool resp3, int depth);

// The value of string field `field` of the table on top of the stack, if it is a string.
std::optional<std::string> string_field(lua_State* L, const char* field) {
  lua_pushstring(L, field);
  lua_rawget(L, -2);
  std::optional<std::string> text;
  if (lua_type(L, -1) == LUA_TSTRING) {
    std::size_t length = 0;
    const char* data = lua_tolstring(L, -1, &length);
    text.emplace(data, length);
  }
  lua_pop(L, 1);
  return text;
}

// {map = {k = v}} or {set = {k = true}} (the table is on top of the stack). Lua 5.4's lua_next order
// depends on a per-state random hash seed, so entries are sorted by key: deterministic, and the order Redis
// gives small string-keyed tables.
Reply map_or_set_to_reply(lua_State* L, std::string_view sha, bool resp3, int depth, bool is_map) {
  std::vector<std::pair<Reply, Reply>> entries;
  lua_pushnil(L);
  // lua_next visits each key once, so the loop is bounded by the table's size.
  while (lua_next(L, -2) != 0) {
    lua_pushvalue(L, -2);  // the key, converted without disturbing lua_next's copy
    Reply key = to_reply_at(L, sha, resp3, depth + 1);
    lua_pop(L, 1);
    entries.emplace_back(std::move(key), is_map ? to_reply_at(L, sha, resp3, depth + 1) : Reply{});
    lua_pop(L, 1);
  }
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return std::tie(a.first.kind, a.first.integer, a.first.text) < std::tie(b.first.kind, b.first.integer, b.first.text);
  });
  std::vector<Reply> elements;
  for (auto& [key, value] : entries) {
    elements.push_back(std::move(key));
    if (is_map) elements.push_back(std::move(value));
  }
  return is_map ? Reply::map(std::move(elements)) : Reply::set(std::move(elements));
}

// Redis's one-field tables for RESP3 types: double, big_number, map, set, verbatim_string.
std::optional<Reply> resp3_table_to_reply(lua_State* L, std::string_view sha, bool resp3, int depth) {
  lua_pushliteral(L, "double");
  lua_rawget(L, -2);
  if (lua_type(L, -1) == LUA_TNUMBER) {
    Reply number = Reply::double_reply(format_double(lua_tonumber(L, -1)));
    lua_pop(L, 1);
    return number;
  }
  lua_pop(L, 1);
  if (auto digits = string_field(L, "big_number")) return Reply::big_number(std::move(*digits));
  for (const char* field : {"map", "set"}) {
    lua_pushstring(L, field);
    lua_rawget(L, -2);
    if (lua_type(L, -1) == LUA_TTABLE) {
      Reply reply = map_or_set_to_reply(L, sha, resp3, depth, field[0] == 'm');
      lua_pop(L, 1);
      return reply;
    }
    lua_pop(L, 1);
  }
  lua_pushliteral(L, "verbatim_string");
  lua_rawget(L, -2);
  std::optional<Reply> verbatim;
  if (lua_type(L, -1) == LUA_TTABLE) {
    auto format = string_field(L, "format");
    auto text = string_field(L, "string");
    if (format && text) verbatim = Reply::verbatim(std::move(*text));
  }
  lua_pop(L, 1);
  return verbatim;
}

Reply to_reply_at(lua_State* L, std::string_view sha, bool resp3, int depth) {
  switch (lua_type(L, -1)) {
    case LUA_TSTRING: {
      std::size_t length = 0;
      const char* data = lua_tolstring(L, -1, &length);
      return Reply::bulk(std::string(data, length));
    }
    case LUA_TBOOLEAN:
      // After redis.setresp(3) a boolean is a RESP3 boolean; before, true is 1 and false is nil.
      if (resp3) return Reply::boolean(lua_toboolean(L, -1) != 0);
      return lua_toboolean(L, -1) ? Reply::integer_reply(1) : Reply::nil();
    case LUA_TNUMBER: return Reply::integer_reply(lua_number_to_reply_integer(L, -1));
    case LUA_TTABLE: break;
    default: return Reply::nil();
  }
  if (depth > kMaxDepth || !lua_checkstack(L, 6)) return Reply::error("ERR reached lua stack limit");
  // err first (a string), then ok (a string), then the RESP3 tables; otherwise the array part up to the
  // first nil.
  lua_pushliteral(L, "err");
  lua_rawget(L, -2);
  bool is_error = lua_type(L, -1) == LUA_TSTRING;
  lua_pop(L, 1);
  if (is_error) return error_table_to_reply(L, sha);
  if (auto ok = string_field(L, "ok")) return Reply::status(spaces_for_newlines(std::move(*ok)));
  if (auto typed = resp3_table_to_reply(L, sha, resp3, depth)) return std::move(*typed);
  std::vector<Reply> elements;
  // Walks indices, never #t: the length operator is unspecified for tables with holes.
  for (lua_Integer index = 1;; ++index) {
    if (lua_rawgeti(L, -1, index) == LUA_TNIL) {
      lua_pop(L, 1);
      break;
    }
    elements.push_back(to_reply_at(L, sha, resp3, depth + 1));
    lua_pop(L, 1);
  }
  return Reply::array(std::move(elements));
}

}  // namespace

std::int64_t lua_number_to_reply_integer(lua_State* L, int index) {
  double value = lua_isinteger(L, index) ? static_cast<double>(lua_tointeger(L, index)) : lua_tonumber(L, index);
  // [-2^63, 2^63) converts; everything else is what x86-64's cvttsd2si gives: INT64_MIN.
  if (std::isnan(value) || value >= 9223372036854775808.0 || value < -9223372036854775808.0) {
    return std::numeric_limits<std::int64_t>::min();
  }
  return static_cast<std::int64_t>(value);
}

void push_reply(lua_State* L, const Reply& reply, bool resp3) {
  luaL_checkstack(L, 4, "reply nesting");
  switch (reply.kind) {
    case Reply::Kind::nil:
    case Reply::Kind::null_array:
      if (resp3) lua_pushnil(L);
      else lua_pushboolean(L, 0);
      return;
    case Reply::Kind::integer: push_redis_integer(L, reply.integer); return;
    case Reply::Kind::bulk: lua_pushlstring(L, reply.text.data(), reply.text.size()); return;
    case Reply::Kind::status: push_wrapped_string(L, "ok", reply.text); return;
    case Reply::Kind::error: push_error_table(L, "-" + reply.text); return;
    case Reply::Kind::array:
    case Reply::Kind::push:
      lua_createtable(L, static_cast<int>(reply.elements.size()), 0);
      for (std::size_t i = 0; i < reply.elements.size(); ++i) {
        push_reply(L, reply.elements[i], resp3);
        lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
      }
      return;
    // RESP3 kinds reach a script only after redis.setresp(3); Redis wraps them in one-field tables.
    case Reply::Kind::boolean: lua_pushboolean(L, reply.integer != 0); return;
    case Reply::Kind::double_number:
      lua_createtable(L, 0, 1);
      lua_pushnumber(L, parse_double(reply.text).value_or(0.0));
      lua_setfield(L, -2, "double");
      return;
    case Reply::Kind::big_number: push_wrapped_string(L, "big_number", reply.text); return;
    case Reply::Kind::verbatim:
      lua_createtable(L, 0, 1);
      lua_createtable(L, 0, 2);
      lua_pushliteral(L, "txt");
      lua_setfield(L, -2, "format");
      lua_pushlstring(L, reply.text.data(), reply.text.size());
      lua_setfield(L, -2, "string");
      lua_setfield(L, -2, "verbatim_string");
      return;
    case Reply::Kind::map:
    case Reply::Kind::set: {
      const bool is_map = reply.kind == Reply::Kind::map;
      lua_createtable(L, 0, 1);
      lua_createtable(L, 0, static_cast<int>(reply.elements.size()));
      for (std::size_t i = 0; i < reply.elements.size(); i += is_map ? 2 : 1) {
        push_reply(L, reply.elements[i], resp3);
        if (is_map && i + 1 < reply.elements.size()) push_reply(L, reply.elements[i + 1], resp3);
        else lua_pushboolean(L, 1);
        lua_rawset(L, -3);
      }
      lua_setfield(L, -2, is_map ? "map" : "set");
      return;
    }
  }
}

Reply to_reply(lua_State* L, std::string_view sha, bool resp3) { return to_reply_at(L, sha, resp3, 0); }

Reply error_table_to_reply(lua_State* L, std::string_view sha) {
  lua_getfield(L, -1, "err");
  std::string message = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "ERR unknown error";
  lua_pop(L, 1);
  lua_getfield(L, -1, "source");
  std::string source = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
  lua_pop(L, 1);
  lua_getfield(L, -1, "line");
  std::string line;
  if (lua_type(L, -1) == LUA_TNUMBER) line = std::to_string(lua_number_to_reply_integer(L, -1));
  lua_pop(L, 1);
  if (!source.empty() && !line.empty()) message += " script: " + std::string(sha) + ", on " + source + ":" + line + ".";
  return Reply::error(spaces_for_newlines(std::move(message)));
}

bool error_stats_counted(lua_State* L) {
  if (!lua_istable(L, -1)) return false;
  lua_pushstring(L, kErrorStatsCounted);
  lua_rawget(L, -2);  // raw: a script's own table may have a metatable
  const bool counted = lua_toboolean(L, -1) != 0;
  lua_pop(L, 1);
  return counted;
}

void push_error_table(lua_State* L, std::string_view text) {
  std::string code = "ERR";
  std::string message;
  if (!text.empty() && text[0] == '-') {
    std::size_t space = text.find(' ');
    if (space == std::string_view::npos) {
      message = std::string(text.substr(1));
    } else {
      code = std::string(text.substr(1, space - 1));
      message = std::string(text.substr(space + 1));
    }
  } else {
    message = std::string(text);
  }
  while (!message.empty() && (message.back() == '\r' || message.back() == '\n')) message.pop_back();
  std::string final_message = code + " " + message;
  lua_createtable(L, 0, 1);
  lua_pushlstring(L, final_message.data(), final_message.size());
  lua_setfield(L, -2, "err");
}

}  // namespace lockcheck::mock
