#include "lua_convert.hpp"

#include <cmath>
#include <limits>
#include <lua.hpp>
#include <string>

#include "numbers.hpp"

namespace lockcheck::mock {
namespace {

// Replies nest only as deep as Redis produces (a few levels); tables nested deeper than this are
// refused rather than risking the C stack.
constexpr int kMaxDepth = 100;

// Lua 5.1 holds every number as a double, and so does the mock's engine (lua51_rewrite.hpp).
void push_redis_integer(lua_State* L, std::int64_t value) { lua_pushnumber(L, static_cast<lua_Number>(value)); }

std::string spaces_for_newlines(std::string text) {
  for (char& c : text) {
    if (c == '\r' || c == '\n') c = ' ';
  }
  return text;
}

Reply to_reply_at(lua_State* L, std::string_view sha, int depth) {
  switch (lua_type(L, -1)) {
    case LUA_TSTRING: {
      std::size_t length = 0;
      const char* data = lua_tolstring(L, -1, &length);
      return Reply::bulk(std::string(data, length));
    }
    case LUA_TBOOLEAN: return lua_toboolean(L, -1) ? Reply::integer_reply(1) : Reply::nil();
    case LUA_TNUMBER: return Reply::integer_reply(lua_number_to_reply_integer(L, -1));
    case LUA_TTABLE: break;
    default: return Reply::nil();
  }
  if (depth > kMaxDepth || !lua_checkstack(L, 4)) return Reply::error("ERR reached lua stack limit");
  // err first (a string), then ok (a string), then double; otherwise the array part up to the first nil.
  lua_pushliteral(L, "err");
  lua_rawget(L, -2);
  bool is_error = lua_type(L, -1) == LUA_TSTRING;
  lua_pop(L, 1);
  if (is_error) return error_table_to_reply(L, sha);
  lua_pushliteral(L, "ok");
  lua_rawget(L, -2);
  if (lua_type(L, -1) == LUA_TSTRING) {
    Reply status = Reply::status(spaces_for_newlines(lua_tostring(L, -1)));
    lua_pop(L, 1);
    return status;
  }
  lua_pop(L, 1);
  lua_pushliteral(L, "double");
  lua_rawget(L, -2);
  if (lua_type(L, -1) == LUA_TNUMBER) {
    Reply bulk = Reply::bulk(format_double(lua_tonumber(L, -1)));
    lua_pop(L, 1);
    return bulk;
  }
  lua_pop(L, 1);
  std::vector<Reply> elements;
  // Walks indices, never #t: the length operator is unspecified for tables with holes.
  for (lua_Integer index = 1;; ++index) {
    if (lua_rawgeti(L, -1, index) == LUA_TNIL) {
      lua_pop(L, 1);
      break;
    }
    elements.push_back(to_reply_at(L, sha, depth + 1));
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
      if (resp3) lua_pushnil(L);
      else lua_pushboolean(L, 0);
      return;
    case Reply::Kind::integer: push_redis_integer(L, reply.integer); return;
    case Reply::Kind::bulk: lua_pushlstring(L, reply.text.data(), reply.text.size()); return;
    case Reply::Kind::status:
      lua_createtable(L, 0, 1);
      lua_pushlstring(L, reply.text.data(), reply.text.size());
      lua_setfield(L, -2, "ok");
      return;
    case Reply::Kind::error: push_error_table(L, "-" + reply.text); return;
    case Reply::Kind::array:
      lua_createtable(L, static_cast<int>(reply.elements.size()), 0);
      for (std::size_t i = 0; i < reply.elements.size(); ++i) {
        push_reply(L, reply.elements[i], resp3);
        lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
      }
      return;
  }
}

Reply to_reply(lua_State* L, std::string_view sha) { return to_reply_at(L, sha, 0); }

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
