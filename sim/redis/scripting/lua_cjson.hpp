#pragma once
// cjson as Redis 7.0 ships it (lua-cjson 2.1.0, default settings), written in Lua for the embedded 5.4:
// encode, decode, null and the settings functions (which report the defaults and change nothing).
namespace lockcheck::mock {

// Called with (null lightuserdata, the ".." operand formatter, as_c_function); returns the cjson table.
extern const char* const kLuaCjson;

}  // namespace lockcheck::mock
