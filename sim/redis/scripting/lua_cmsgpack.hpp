#pragma once
// cmsgpack as Redis 7.0 ships it (lua-cmsgpack 0.4.0), written in Lua for the embedded 5.4: pack,
// unpack, unpack_one, unpack_limit.
namespace lockcheck::mock {

// Called with (as_c_function); returns the cmsgpack table.
extern const char* const kLuaCmsgpack;

}  // namespace lockcheck::mock
