#pragma once
// Lua 5.1 behaviour that needs C: number-to-text as 5.1 prints it for "..", 5.1's tonumber (strtod:
// "inf", "nan", hex, surrounding spaces), loadstring with the same rewriting EVAL applies, and 5.1's
// wording of runtime errors ("attempt to index field 'a' (a nil value)").
#include <string>
#include <string_view>

struct lua_State;

namespace lockcheck::mock {

// Sets the globals tostring, tonumber and the ".." operand hook (lua51_rewrite.hpp); pushes a table of
// helpers for the prelude: compile(source, chunkname, env) -> function | nil, message; make_load(env);
// as_c_function(f, with_position) -> f behind a C function, for errors positioned as a C library's.
void open_lua51_lib(lua_State* L);

// "attempt to index a nil value (field 'a')" -> "attempt to index field 'a' (a nil value)"; other text
// is returned unchanged.
std::string lua51_error_wording(std::string_view message);

// Replaces the string error message at `index` by its 5.1 wording.
void reword_error_at(lua_State* L, int index);

}  // namespace lockcheck::mock
