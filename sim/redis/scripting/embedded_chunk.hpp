#pragma once
// The sandbox's own Lua libraries (cjson, cmsgpack, struct, the prelude) are the same source text in every
// node, and parsing them was most of a node's construction (~7M instructions, more than a short simulated run
// spends on its events): each is compiled once per process and every node loads the bytecode.
#include <string>
#include <string_view>

struct lua_State;

namespace lockcheck::mock {

// Compiles `source` in a scratch state and returns its bytecode with debug information (line numbers and the
// chunk name stay as a text load gives them), or an empty string with `error` set to Lua's message.
std::string compile_chunk(std::string_view source, const char* chunkname, std::string& error);

// Pushes the compiled chunk of `source` (a string with static storage: the cache is keyed by its address),
// named `chunkname` as luaL_loadbufferx names it. Returns LUA_OK, or the status of compiling it with the
// error message pushed. Thread-safe.
int load_embedded_chunk(lua_State* L, const char* source, const char* chunkname);

}  // namespace lockcheck::mock
