#include "redis/scripting/lua_function_lib.hpp"

#include <cstring>
#include <lua.hpp>

#include "redis/scripting/lua51_lib.hpp"
#include "redis/scripting/lua51_rewrite.hpp"
#include "redis/util/numbers.hpp"
#include "redis/scripting/lua_convert.hpp"
#include "redis/scripting/lua_engine.hpp"
#include "redis/scripting/lua_redis_lib.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

[[noreturn]] void raise(lua_State* L, std::string_view text) {
  push_error_table(L, text);
  lua_error(L);
  __builtin_unreachable();
}

// Redis reads names with lua_isstring/lua_tostring: a number counts, printed as Lua 5.1 prints it.
std::optional<std::string> string_at(lua_State* L, int index) {
  if (lua_type(L, index) == LUA_TNUMBER) return format_lua51_number(lua_tonumber(L, index));
  if (lua_type(L, index) != LUA_TSTRING) return std::nullopt;
  std::size_t length = 0;
  const char* text = lua_tolstring(L, index, &length);
  return std::string(text, length);
}

std::uint8_t read_flags(lua_State* L, int table) {
  std::uint8_t flags = 0;
  // Up to the first nil, as Redis reads them; bounded by the table's length.
  for (lua_Integer i = 1;; ++i) {
    lua_rawgeti(L, table, i);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      return flags;
    }
    std::optional<std::string> flag = string_at(L, -1);
    lua_pop(L, 1);
    bool found = false;
    for (const FunctionFlagName& known : kFunctionFlagNames) {
      if (flag && iequals(*flag, known.name)) {
        flags |= known.flag;
        found = true;
      }
    }
    if (!found) raise(L, "unknown flag given");
  }
}

void read_named_arguments(lua_State* L, RegisteredFunction& function, bool& has_name, bool& has_callback) {
  if (!lua_istable(L, 1)) {
    raise(L, "calling redis.register_function with a single argument is only applicable to Lua table (representing "
             "named arguments).");
  }
  lua_pushnil(L);
  // One round per field of the table.
  while (lua_next(L, 1) != 0) {
    std::optional<std::string> key = string_at(L, -2);
    if (!key) raise(L, "named argument key given to redis.register_function is not a string");
    if (iequals(*key, "function_name")) {
      auto name = string_at(L, -1);
      if (!name) raise(L, "function_name argument given to redis.register_function must be a string");
      function.name = *name;
      has_name = true;
    } else if (iequals(*key, "description")) {
      auto description = string_at(L, -1);
      if (!description) raise(L, "description argument given to redis.register_function must be a string");
      function.description = *description;
    } else if (iequals(*key, "callback")) {
      if (!lua_isfunction(L, -1)) raise(L, "callback argument given to redis.register_function must be a function");
      if (has_callback) luaL_unref(L, LUA_REGISTRYINDEX, function.callback_ref);
      lua_pushvalue(L, -1);
      function.callback_ref = luaL_ref(L, LUA_REGISTRYINDEX);
      has_callback = true;
    } else if (iequals(*key, "flags")) {
      if (!lua_istable(L, -1)) raise(L, "flags argument to redis.register_function must be a table representing function flags");
      function.flags = read_flags(L, lua_gettop(L));
    } else {
      raise(L, "unknown argument given to redis.register_function");
    }
    lua_pop(L, 1);
  }
  if (!has_name) raise(L, "redis.register_function must get a function name argument");
  if (!has_callback) raise(L, "redis.register_function must get a callback argument");
}

int register_function(lua_State* L) {
  RegisterSink* sink = LuaEngine::of(L).loading_functions();
  if (sink == nullptr) raise(L, "redis.register_function can only be called on FUNCTION LOAD command");
  const int argc = lua_gettop(L);
  if (argc < 1 || argc > 2) raise(L, "wrong number of arguments to redis.register_function");
  RegisteredFunction function;
  bool has_name = false, has_callback = false;
  if (argc == 1) {
    read_named_arguments(L, function, has_name, has_callback);
  } else {
    auto name = string_at(L, 1);
    if (!name) raise(L, "first argument to redis.register_function must be a string");
    if (!lua_isfunction(L, 2)) raise(L, "second argument to redis.register_function must be a function");
    function.name = *name;
    lua_pushvalue(L, 2);
    function.callback_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  auto release = [&] { luaL_unref(L, LUA_REGISTRYINDEX, function.callback_ref); };
  if (!valid_function_name(function.name)) {
    release();
    raise(L, "Library names can only contain letters, numbers, or underscores(_) and must be at least one character long");
  }
  for (const RegisteredFunction& existing : *sink) {
    if (existing.name == function.name) {  // case-sensitive within a library, unlike FCALL's lookup
      release();
      raise(L, "Function already exists in the library");
    }
  }
  sink->push_back(std::move(function));
  return 0;
}

// Switches the shared environment's __index: upvalue 1 = its metatable, 2 = the load scope, 3 = the sandbox.
int switch_scope(lua_State* L) {
  const bool loading = lua_toboolean(L, 1) != 0;
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushvalue(L, lua_upvalueindex(loading ? 2 : 3));
  lua_setfield(L, -2, "__index");
  return 0;
}

// A table whose missing names raise Redis's nonexistent-global error and whose writes fail.
void guard_table(lua_State* L) {
  lua_createtable(L, 0, 3);
  lua_pushcfunction(L, lua_nonexistent_global);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, lua_readonly_error);
  lua_setfield(L, -2, "__newindex");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, -2);
}

void copy_field(lua_State* L, int from, int to, const char* name) {
  lua_getfield(L, from, name);
  lua_setfield(L, to, name);
}

}  // namespace

bool valid_function_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

void push_function_environment(lua_State* L, int env_index) {
  env_index = lua_absindex(L, env_index);
  lua_getfield(L, env_index, "redis");
  const int redis = lua_gettop(L);
  // The load scope: `redis` with the library API only, and the Lua 5.1 hooks the rewritten code calls.
  lua_createtable(L, 0, 4);
  const int load_scope = lua_gettop(L);
  lua_createtable(L, 0, 10);
  const int load_redis = lua_gettop(L);
  lua_pushcfunction(L, register_function);
  lua_setfield(L, load_redis, "register_function");
  for (const char* name : {"log", "LOG_DEBUG", "LOG_VERBOSE", "LOG_NOTICE", "LOG_WARNING", "REDIS_VERSION",
                           "REDIS_VERSION_NUM"}) {
    copy_field(L, redis, load_redis, name);
  }
  guard_table(L);
  lua_setfield(L, load_scope, "redis");
  copy_field(L, env_index, load_scope, std::string(kConcatOperand).c_str());
  copy_field(L, env_index, load_scope, std::string(kModulo).c_str());
  guard_table(L);
  // The shared environment: an empty proxy whose metatable's __index is switched.
  lua_newtable(L);
  const int proxy = lua_gettop(L);
  lua_createtable(L, 0, 3);
  const int metatable = lua_gettop(L);
  lua_pushvalue(L, env_index);
  lua_setfield(L, metatable, "__index");
  lua_pushcfunction(L, lua_readonly_error);
  lua_setfield(L, metatable, "__newindex");
  lua_pushboolean(L, 0);
  lua_setfield(L, metatable, "__metatable");
  lua_pushvalue(L, metatable);
  lua_setmetatable(L, proxy);
  // switch(loading): upvalues metatable, load scope, sandbox.
  lua_pushvalue(L, metatable);
  lua_pushvalue(L, load_scope);
  lua_pushvalue(L, env_index);
  lua_pushcclosure(L, switch_scope, 3);
  lua_pushvalue(L, proxy);
  lua_insert(L, -2);  // ..., proxy, switch
  for (int index = metatable; index >= redis; --index) lua_remove(L, index);
}

}  // namespace lockcheck::mock
