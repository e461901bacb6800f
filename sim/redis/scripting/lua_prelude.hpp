#pragma once
// Lua code run once at start-up, before the globals are locked: Lua 5.1 aliases Redis scripts use, a
// LuaBitOp-compatible `bit`, 5.1-style argument coercion where 5.4 is stricter, and the read-only
// sandbox itself (proxies for the library tables and for _ENV).
namespace lockcheck::mock {

// Called with (readonly_error, nonexistent_global); returns the environment proxy for scripts.
extern const char* const kLuaPrelude;

}  // namespace lockcheck::mock
