#pragma once
// struct as Redis 7.0 ships it (Roberto Ierusalimschy's struct library): pack, unpack, size with
// formats > < ! x b B h H l L T i[n] I[n] f d c[n] s, written in Lua for the embedded 5.4.
namespace lockcheck::mock {

// Called with (as_c_function); returns the struct table.
extern const char* const kLuaStruct;

}  // namespace lockcheck::mock
