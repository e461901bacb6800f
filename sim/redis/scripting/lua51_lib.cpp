#include "redis/scripting/lua51_lib.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <lua.hpp>
#include <optional>
#include <string>

#include "redis/scripting/lua51_rewrite.hpp"
#include "redis/scripting/lua51_syntax.hpp"
#include "redis/util/numbers.hpp"

namespace lockcheck::mock {
namespace {

// Is `name` a local of the running script function (level 1), or an upvalue of it?
const char* variable_kind(lua_State* L, const char* name) {
  lua_Debug frame;
  if (!lua_getstack(L, 1, &frame)) return "global";
  // Bounded by the function's active locals (at most 200 in Lua).
  for (int n = 1; n <= 255; ++n) {
    const char* local = lua_getlocal(L, &frame, n);
    if (local == nullptr) break;
    lua_pop(L, 1);
    if (std::strcmp(local, name) == 0) return "local";
  }
  lua_getinfo(L, "f", &frame);
  for (int n = 1; n <= 255; ++n) {
    const char* upvalue = lua_getupvalue(L, -1, n);
    if (upvalue == nullptr) break;
    lua_pop(L, 1);
    if (std::strcmp(upvalue, name) == 0) return "upvalue";
  }
  return "global";
}

// Raises 5.1's "attempt to <verb> <local 'x'|field 'k'|...> (a <type> value)" for the value at `value`,
// named by the rewriter's hint at `hint` (lua51_rewrite.cpp), positioned at the script line.
int operand_error(lua_State* L, const char* verb, int value, int hint_index) {
  const char* hint = lua_tostring(L, hint_index);
  const char* type_name = luaL_typename(L, value);
  if (hint == nullptr) return luaL_error(L, "attempt to %s a %s value", verb, type_name);
  if (hint[0] == 'f') return luaL_error(L, "attempt to %s field '%s' (a %s value)", verb, hint + 2, type_name);
  return luaL_error(L, "attempt to %s %s '%s' (a %s value)", verb, variable_kind(L, hint + 2), hint + 2, type_name);
}

// What a ".." operand becomes: numbers as 5.1 prints them ("%.14g"), strings and values with a __concat
// metamethod unchanged. Anything else raises 5.1's error, named by the rewriter's hint (lua51_rewrite.cpp).
int concat_operand(lua_State* L) {
  int type = lua_type(L, 1);
  if (type == LUA_TNUMBER) {
    std::string text = format_lua51_number(static_cast<double>(lua_tonumber(L, 1)));
    lua_pushlstring(L, text.data(), text.size());
    return 1;
  }
  if (type == LUA_TSTRING || luaL_getmetafield(L, 1, "__concat") != LUA_TNIL) {
    lua_settop(L, 1);
    return 1;
  }
  return operand_error(L, "concatenate", 1, 2);
}

// a % b as 5.1 computes it: a - floor(a/b)*b on doubles (numeric strings count as numbers); operands with
// a __mod metamethod go to it; anything else raises 5.1's arithmetic error naming the first bad operand.
int modulo(lua_State* L) {
  if (lua_isnumber(L, 1) && lua_isnumber(L, 2)) {
    double a = static_cast<double>(lua_tonumber(L, 1));
    double b = static_cast<double>(lua_tonumber(L, 2));
    lua_pushnumber(L, a - std::floor(a / b) * b);
    return 1;
  }
  // 5.4's strings carry arithmetic metamethods; 5.1's do not, so a non-numeric string is an error here.
  auto has_mod = [L](int index) { return lua_type(L, index) != LUA_TSTRING && luaL_getmetafield(L, index, "__mod") != LUA_TNIL; };
  if (has_mod(1) || has_mod(2)) {
    lua_settop(L, 2);
    lua_arith(L, LUA_OPMOD);
    return 1;
  }
  int bad = lua_isnumber(L, 1) ? 2 : 1;
  return operand_error(L, "perform arithmetic on", bad, bad + 2);
}

bool only_spaces(const char* text) {
  // Bounded by the terminating NUL.
  while (*text != '\0' && std::isspace(static_cast<unsigned char>(*text))) ++text;
  return *text == '\0';
}

// 5.1's luaO_str2d: strtod (which reads "inf", "nan" and hex), then trailing spaces only.
bool lua51_string_to_number(const char* text, double& out) {
  char* end = nullptr;
  out = std::strtod(text, &end);
  if (end == text) return false;
  return only_spaces(end);
}

// tonumber(e [, base]) as in 5.1; every result is a float, as 5.1 has no integers.
int tonumber(lua_State* L) {
  int base = static_cast<int>(luaL_optnumber(L, 2, 10));
  if (base == 10) {
    luaL_checkany(L, 1);
    if (lua_type(L, 1) == LUA_TNUMBER) {
      lua_pushnumber(L, lua_tonumber(L, 1));
      return 1;
    }
    double value = 0;
    if (lua_type(L, 1) == LUA_TSTRING && lua51_string_to_number(lua_tostring(L, 1), value)) {
      lua_pushnumber(L, value);
      return 1;
    }
  } else {
    const char* text = luaL_checkstring(L, 1);
    luaL_argcheck(L, 2 <= base && base <= 36, 2, "base out of range");
    char* end = nullptr;
    unsigned long value = std::strtoul(text, &end, base);
    if (end != text && only_spaces(end)) {
      lua_pushnumber(L, static_cast<lua_Number>(value));
      return 1;
    }
  }
  lua_pushnil(L);
  return 1;
}

// compile(source, chunkname, env): loadstring's body. The same 5.1 checks and rewriting as EVAL.
int compile(lua_State* L) {
  std::size_t length = 0;
  const char* source = luaL_checklstring(L, 1, &length);
  const char* chunkname = luaL_optstring(L, 2, source);
  std::string_view text(source, length);
  if (auto issue = find_lua54_only_syntax(text)) {
    lua_pushnil(L);
    lua_pushfstring(L, "[string \"%s\"]:%d: %s", chunkname, issue->line, issue->message.c_str());
    return 2;
  }
  std::string rewritten = rewrite_for_lua51_numbers(text);
  if (luaL_loadbufferx(L, rewritten.data(), rewritten.size(), chunkname, "t") != LUA_OK) {
    lua_pushnil(L);
    lua_insert(L, -2);
    return 2;
  }
  lua_pushvalue(L, 3);
  lua_setupvalue(L, -2, 1);  // _ENV
  return 1;
}

// load(reader [, chunkname]) as in 5.1: the chunk is read from a function, never from a string. The
// environment is upvalue 1.
int load(lua_State* L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  const char* chunkname = luaL_optstring(L, 2, "=(load)");
  std::string source;
  // A reader returns pieces until nil or ""; bounded so a reader that never ends cannot hang the node.
  for (int piece = 0; piece < 1'000'000; ++piece) {
    lua_pushvalue(L, 1);
    lua_call(L, 0, 1);
    if (lua_isnil(L, -1) || (lua_type(L, -1) == LUA_TSTRING && lua_rawlen(L, -1) == 0)) break;
    if (lua_type(L, -1) != LUA_TSTRING) {
      lua_pushnil(L);
      lua_pushliteral(L, "reader function must return a string");
      return 2;
    }
    std::size_t length = 0;
    const char* text = lua_tolstring(L, -1, &length);
    source.append(text, length);
    lua_pop(L, 1);
  }
  lua_settop(L, 0);
  lua_pushlstring(L, source.data(), source.size());
  lua_pushstring(L, chunkname);
  lua_pushvalue(L, lua_upvalueindex(1));
  return compile(L);
}

// A Lua library function seen as a C one, as it is in Redis: a tail call keeps the caller's frame, error
// positions name the caller ("user_script:1: ..." when upvalue 2 is true), and the error handler looks
// past it to the script line.
int c_trampoline(lua_State* L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  if (lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0) == LUA_OK) return lua_gettop(L);
  if (lua_type(L, -1) == LUA_TSTRING && lua_toboolean(L, lua_upvalueindex(2))) {
    luaL_where(L, 1);
    lua_insert(L, -2);
    lua_concat(L, 2);
  }
  return lua_error(L);
}

// as_c_function(f, with_position) -> the trampoline for f.
int as_c_function(lua_State* L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 2);
  lua_pushcclosure(L, c_trampoline, 2);
  return 1;
}

// make_load(env) -> load bound to the scripts' environment.
int make_load(lua_State* L) {
  luaL_checkany(L, 1);
  lua_pushcclosure(L, load, 1);
  return 1;
}

}  // namespace

// 5.4's string-arithmetic metamethods say "attempt to add a 'string' with a 'number'"; 5.1 says
// "attempt to perform arithmetic on a string value", naming the first operand that is not a number.
std::optional<std::string> string_arithmetic_wording(std::string_view message) {
  std::size_t attempt = message.find("attempt to ");
  std::size_t with = message.find("' with a '");
  if (attempt == std::string_view::npos || with == std::string_view::npos || !message.ends_with("'")) return std::nullopt;
  std::size_t first_open = message.rfind(" a '", with);
  if (first_open == std::string_view::npos || first_open < attempt) return std::nullopt;
  std::string_view first = message.substr(first_open + 4, with - first_open - 4);
  std::string_view second = message.substr(with + 10, message.size() - with - 11);
  std::string_view culprit = first == "number" ? second : first;
  return std::string(message.substr(0, attempt)) + "attempt to perform arithmetic on a " + std::string(culprit) + " value";
}

std::string lua51_error_wording(std::string_view message) {
  // 5.4's parser says "near <eof>", 5.1's "near '<eof>'".
  constexpr std::string_view kNearEof = " near <eof>";
  if (message.ends_with(kNearEof)) return std::string(message.substr(0, message.size() - kNearEof.size())) + " near '<eof>'";
  if (auto arithmetic = string_arithmetic_wording(message)) return *arithmetic;
  // 5.4: "...attempt to <verb> a <type> value (<kind> '<name>')"; 5.1: "...attempt to <verb> <kind>
  // '<name>' (a <type> value)". 5.4's "constant" kind has no 5.1 counterpart: 5.1 names nothing there.
  constexpr std::string_view kAttempt = "attempt to ";
  std::size_t attempt = message.find(kAttempt);
  if (attempt == std::string_view::npos || !message.ends_with("')")) return std::string(message);
  std::size_t open = message.rfind(" (");
  std::size_t value = message.rfind(" value", open);
  std::size_t article = message.rfind(" a ", value);
  if (open == std::string_view::npos || value == std::string_view::npos || article == std::string_view::npos ||
      article < attempt || value + 6 != open) {
    return std::string(message);
  }
  std::string_view verb = message.substr(0, article);  // "...attempt to index"
  std::string_view type_phrase = message.substr(article + 1, open - article - 1);  // "a nil value"
  std::string_view variable = message.substr(open + 2, message.size() - open - 3);  // "field 'a'"
  if (variable.starts_with("constant ")) return std::string(verb) + " " + std::string(type_phrase);
  return std::string(verb) + " " + std::string(variable) + " (" + std::string(type_phrase) + ")";
}

void reword_error_at(lua_State* L, int index) {
  if (lua_type(L, index) != LUA_TSTRING) return;
  index = lua_absindex(L, index);
  std::size_t length = 0;
  const char* text = lua_tolstring(L, index, &length);
  std::string reworded = lua51_error_wording(std::string_view(text, length));
  lua_pushlstring(L, reworded.data(), reworded.size());
  lua_replace(L, index);
}

void open_lua51_lib(lua_State* L) {
  lua_pushcfunction(L, concat_operand);
  lua_setglobal(L, std::string(kConcatOperand).c_str());
  lua_pushcfunction(L, modulo);
  lua_setglobal(L, std::string(kModulo).c_str());
  lua_pushcfunction(L, tonumber);
  lua_setglobal(L, "tonumber");
  lua_createtable(L, 0, 3);
  lua_pushcfunction(L, compile);
  lua_setfield(L, -2, "compile");
  lua_pushcfunction(L, make_load);
  lua_setfield(L, -2, "make_load");
  lua_pushcfunction(L, as_c_function);
  lua_setfield(L, -2, "as_c_function");
}

}  // namespace lockcheck::mock
