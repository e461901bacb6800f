#include "redis/scripting/lua_redis_lib.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <lua.hpp>

#include "lockcheck/sha1.hpp"
#include "redis/scripting/lua51_lib.hpp"
#include "redis/scripting/lua_convert.hpp"
#include "redis/scripting/lua_engine.hpp"
#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

// Raises (redis.call) or returns (redis.pcall) Redis's error table for `text`.
int fail(lua_State* L, bool raise, std::string_view text) {
  push_error_table(L, text);
  if (raise) return lua_error(L);
  return 1;
}

// The script's arguments 1..n as a command in `command`; false (and the error on the stack, raised or pushed)
// when one is neither a string nor a number.
[[gnu::always_inline]] inline bool read_command(lua_State* L, bool raise, Command& command, int& failure) {
  int argc = lua_gettop(L);
  if (argc == 0) {
    failure = fail(L, raise, "Please specify at least one argument for this redis lib call");
    return false;
  }
  command.resize(static_cast<std::size_t>(argc));
  for (int i = 1; i <= argc; ++i) {
    std::string& arg = command[static_cast<std::size_t>(i - 1)];
    int type = lua_type(L, i);
    if (type == LUA_TSTRING) {
      std::size_t length = 0;
      const char* data = lua_tolstring(L, i, &length);
      arg.assign(data, length);
    } else if (type == LUA_TNUMBER) {
      // Redis 7.0 sends any number as "%.17g" of its double: 3.0 -> "3", 0.1 -> "0.10000000000000001".
      // Integral values below 2^53 print as plain integers under "%.17g", so they skip printf (hot path).
      double value = static_cast<double>(lua_tonumber(L, i));
      char buffer[64];
      constexpr double kExactIntegers = 9007199254740992.0;  // 2^53
      if (value == std::trunc(value) && std::fabs(value) < kExactIntegers && !(value == 0.0 && std::signbit(value))) {
        auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, static_cast<std::int64_t>(value));
        arg.assign(buffer, end);
      } else {
        int length = std::snprintf(buffer, sizeof buffer, "%.17g", value);
        arg.assign(buffer, static_cast<std::size_t>(length));
      }
    } else {
      failure = fail(L, raise, "Lua redis lib command arguments must be strings or integers");
      return false;
    }
  }
  return true;
}

int redis_call_generic(lua_State* L, bool raise) {
  LuaEngine& engine = LuaEngine::of(L);
  Command& command = engine.scratch();
  int bad_arguments = 0;
  if (!read_command(L, raise, command, bad_arguments)) return bad_arguments;
  Reply reply;
  bool failed = false;
  std::string failure;
  try {
    reply = engine.host().call_from_script(command, engine.read_only(), engine.allow_oom());
  } catch (const std::exception& e) {
    failed = true;  // never let a C++ exception cross the Lua frames
    failure = e.what();
  }
  if (failed) return fail(L, raise, "mock internal error: " + failure);
  if (reply.is_error()) {
    // The node counted this error in INFO errorstats when the command answered it: marked so that the
    // script's own error reply, if it passes this table on, is not counted twice (as Redis marks it).
    push_error_table(L, "-" + reply.text);
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, kErrorStatsCounted);
    if (raise) return lua_error(L);
    return 1;
  }
  push_reply(L, reply, engine.resp3());
  return 1;
}

int redis_call(lua_State* L) { return redis_call_generic(L, true); }
int redis_pcall(lua_State* L) { return redis_call_generic(L, false); }

int redis_error_reply(lua_State* L) {
  if (lua_gettop(L) != 1 || lua_type(L, -1) != LUA_TSTRING) return fail(L, false, "wrong number or type of arguments");
  std::string text = lua_tostring(L, -1);
  if (text.empty() || text[0] != '-') text = "-" + text;
  return fail(L, false, text);
}

int redis_status_reply(lua_State* L) {
  if (lua_gettop(L) != 1 || lua_type(L, -1) != LUA_TSTRING) return fail(L, false, "wrong number or type of arguments");
  lua_createtable(L, 0, 1);
  lua_pushvalue(L, 1);
  lua_setfield(L, -2, "ok");
  return 1;
}

int redis_sha1hex(lua_State* L) {
  if (lua_gettop(L) != 1) return fail(L, true, "wrong number of arguments");
  std::string data;
  if (lua_type(L, 1) == LUA_TNUMBER) {
    data = format_lua51_number(lua_tonumber(L, 1));
  } else if (lua_type(L, 1) == LUA_TSTRING) {
    std::size_t length = 0;
    const char* bytes = lua_tolstring(L, 1, &length);
    data.assign(bytes, length);
  }
  std::string digest = sha1_hex(data);
  lua_pushlstring(L, digest.data(), digest.size());
  return 1;
}

int redis_log(lua_State* L) {
  // Logging goes nowhere in the mock; the argument checks match Redis so scripts fail the same way.
  if (lua_gettop(L) < 2) return fail(L, true, "redis.log() requires two arguments or more.");
  if (!lua_isnumber(L, 1)) return fail(L, true, "First argument must be a number (log level).");
  lua_Number level = lua_tonumber(L, 1);
  if (level < 0 || level > 3) return fail(L, true, "Invalid debug level.");
  return 0;
}

int redis_setresp(lua_State* L) {
  if (lua_gettop(L) != 1) return fail(L, true, "redis.setresp() requires one argument.");
  // Redis reads the version as an int: 2.5 is 2.
  auto resp = static_cast<int>(lua_tonumber(L, 1));
  if (resp != 2 && resp != 3) return fail(L, true, "RESP version must be 2 or 3.");
  LuaEngine::of(L).set_resp3(resp == 3);
  return 0;
}

// redis.acl_check_cmd(command, ...): whether the script's user may run it (command, keys, channels), as
// ACL DRYRUN would answer; arity is not checked, as in Redis.
int redis_acl_check_cmd(lua_State* L) {
  LuaEngine& engine = LuaEngine::of(L);
  Command& command = engine.scratch();
  int failure = 0;
  if (!read_command(L, true, command, failure)) return failure;
  const std::optional<bool> allowed = engine.host().script_user_may_run(command);
  if (!allowed) return fail(L, true, "Invalid command passed to redis.acl_check_cmd()");
  lua_pushboolean(L, *allowed ? 1 : 0);
  return 1;
}

int redis_true(lua_State* L) {
  lua_pushboolean(L, 1);
  return 1;
}

int redis_false(lua_State* L) {
  lua_pushboolean(L, 0);
  return 1;
}

int redis_noop(lua_State*) { return 0; }

// tostring as in Lua 5.1: numbers print with "%.14g" (3.0 -> "3", not 5.4's "3.0").
int lua51_tostring(lua_State* L) {
  luaL_checkany(L, 1);
  if (lua_type(L, 1) == LUA_TNUMBER) {
    char buffer[64];
    int length = std::snprintf(buffer, sizeof buffer, "%.14g", static_cast<double>(lua_tonumber(L, 1)));
    lua_pushlstring(L, buffer, static_cast<std::size_t>(length));
    return 1;
  }
  luaL_tolstring(L, 1, nullptr);
  return 1;
}

// error as in Lua 5.1: a number message also gets the position prefix ("user_script:1: 5").
int lua51_error(lua_State* L) {
  int level = static_cast<int>(luaL_optinteger(L, 2, 1));
  lua_settop(L, 1);
  if (lua_type(L, 1) == LUA_TNUMBER) {
    lua51_tostring(L);
    lua_replace(L, 1);
  }
  if (lua_type(L, 1) == LUA_TSTRING && level > 0) {
    luaL_where(L, level);
    lua_pushvalue(L, 1);
    lua_concat(L, 2);
  }
  return lua_error(L);
}

// math.max / math.min as in Lua 5.1: every argument must be a number or a numeric string, which counts as its
// number (Redisson's read lock does math.max(remainTime, ARGV[1])); anything else is 5.1's "bad argument #2 to
// 'max' (number expected, got nil)", positioned at the caller. 5.4's compare raw values instead: a numeric
// string fails, and nil gives "attempt to compare number with nil". The first of equal values wins, as in 5.1.
int lua51_min_or_max(lua_State* L, bool max) {
  const int count = lua_gettop(L);
  int best = 1;
  for (int i = 1; i <= std::max(count, 1); ++i) {
    luaL_checknumber(L, i);
    if (lua_type(L, i) == LUA_TSTRING) {
      lua_stringtonumber(L, lua_tostring(L, i));  // an integer string stays an integer
      lua_replace(L, i);
    }
    if (i > 1 && (max ? lua_compare(L, best, i, LUA_OPLT) : lua_compare(L, i, best, LUA_OPLT))) best = i;
  }
  lua_pushvalue(L, best);
  return 1;
}
int lua51_max(lua_State* L) { return lua51_min_or_max(L, true); }
int lua51_min(lua_State* L) { return lua51_min_or_max(L, false); }

// pcall as Redis 7.0 wraps it: an error table with an err string is returned as that plain string.
int redis_wrapped_pcall(lua_State* L) {
  luaL_checkany(L, 1);
  int argc = lua_gettop(L);
  lua_pushboolean(L, 1);
  lua_insert(L, 1);
  if (lua_pcall(L, argc - 1, LUA_MULTRET, 0) != LUA_OK) {
    lua_remove(L, 1);
    reword_error_at(L, -1);
    if (lua_istable(L, -1)) {
      lua_getfield(L, -1, "err");
      if (lua_isstring(L, -1)) lua_replace(L, -2);
      else lua_pop(L, 1);
    }
    lua_pushboolean(L, 0);
    lua_insert(L, 1);
  }
  return lua_gettop(L);
}

void set_function(lua_State* L, const char* name, lua_CFunction function) {
  lua_pushcfunction(L, function);
  lua_setfield(L, -2, name);
}

void set_integer(lua_State* L, const char* name, lua_Integer value) {
  lua_pushinteger(L, value);
  lua_setfield(L, -2, name);
}

}  // namespace

void open_redis_lib(lua_State* L) {
  lua_createtable(L, 0, 24);
  set_function(L, "call", redis_call);
  set_function(L, "pcall", redis_pcall);
  set_function(L, "error_reply", redis_error_reply);
  set_function(L, "status_reply", redis_status_reply);
  set_function(L, "sha1hex", redis_sha1hex);
  set_function(L, "log", redis_log);
  set_function(L, "setresp", redis_setresp);
  set_function(L, "acl_check_cmd", redis_acl_check_cmd);
  set_function(L, "replicate_commands", redis_true);
  set_function(L, "set_repl", redis_noop);
  set_function(L, "breakpoint", redis_false);
  set_function(L, "debug", redis_noop);
  set_integer(L, "LOG_DEBUG", 0);
  set_integer(L, "LOG_VERBOSE", 1);
  set_integer(L, "LOG_NOTICE", 2);
  set_integer(L, "LOG_WARNING", 3);
  set_integer(L, "REPL_NONE", 0);
  set_integer(L, "REPL_AOF", 1);
  set_integer(L, "REPL_SLAVE", 2);
  set_integer(L, "REPL_REPLICA", 2);
  set_integer(L, "REPL_ALL", 3);
  lua_pushliteral(L, "7.0.15");
  lua_setfield(L, -2, "REDIS_VERSION");
  set_integer(L, "REDIS_VERSION_NUM", 0x07000f);
  lua_setglobal(L, "redis");

  lua_pushcfunction(L, lua51_tostring);
  lua_setglobal(L, "tostring");
  lua_pushcfunction(L, lua51_error);
  lua_setglobal(L, "error");
  lua_pushcfunction(L, redis_wrapped_pcall);
  lua_setglobal(L, "pcall");
  lua_getglobal(L, "math");
  set_function(L, "max", lua51_max);
  set_function(L, "min", lua51_min);
  lua_pop(L, 1);
}

int lua_error_handler(lua_State* L) {
  // Where the error came from: the raising function, or its caller when that is a C function
  // (error, redis.call), as Redis's __redis__err__handler does.
  lua_Debug where;
  bool have_where = false;
  if (lua_getstack(L, 1, &where) && lua_getinfo(L, "Sl", &where)) {
    if (std::strcmp(where.what, "C") == 0) {
      have_where = lua_getstack(L, 2, &where) && lua_getinfo(L, "Sl", &where);
    } else {
      have_where = true;
    }
  }
  lua_settop(L, 1);
  reword_error_at(L, 1);
  if (!lua_istable(L, 1)) {
    const char* text = luaL_tolstring(L, 1, nullptr);
    lua_createtable(L, 0, 3);
    lua_pushfstring(L, "ERR %s", text);
    lua_setfield(L, -2, "err");
    lua_replace(L, 1);
    lua_settop(L, 1);
  }
  if (have_where) {
    lua_pushstring(L, where.source);
    lua_setfield(L, 1, "source");
    lua_pushinteger(L, where.currentline);
    lua_setfield(L, 1, "line");
  }
  return 1;
}

int lua_readonly_error(lua_State* L) { return luaL_error(L, "Attempt to modify a readonly table"); }

int lua_nonexistent_global(lua_State* L) {
  const char* name = lua_tostring(L, 2);
  return luaL_error(L, "Script attempted to access nonexistent global variable '%s'", name ? name : "?");
}

}  // namespace lockcheck::mock
