#pragma once
// The C side of the sandbox: the redis.* table and the base-library replacements that make Lua 5.4
// behave like Redis's Lua 5.1 where scripts can tell (tostring, error, pcall).
struct lua_State;

namespace lockcheck::mock {

// Sets globals redis, tostring, error, pcall in the current globals table.
void open_redis_lib(lua_State* L);

// Message handler for lua_pcall: turns any error into Redis's {err=..., source=..., line=...} table.
int lua_error_handler(lua_State* L);

// __newindex of every protected table, and __index of the globals table.
int lua_readonly_error(lua_State* L);
int lua_nonexistent_global(lua_State* L);

}  // namespace lockcheck::mock
