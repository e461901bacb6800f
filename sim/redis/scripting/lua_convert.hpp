#pragma once
// Conversions between RESP replies and Lua values, exactly as Redis 7.0 does them (see
// research/redis-lua-semantics.md, sections 1 and 2).
#include <cstdint>
#include <string_view>

#include "lockcheck/reply.hpp"

struct lua_State;

namespace lockcheck::mock {

// Pushes what redis.call returns for `reply`: integer -> number, bulk -> string, nil -> false (RESP3: nil),
// status -> {ok=...}, error -> {err=...} (inside arrays), array -> table; after redis.setresp(3) (`resp3`)
// also map -> {map={k=v}}, set -> {set={k=true}}, double -> {double=n}, boolean -> boolean,
// big number -> {big_number=s}, verbatim -> {verbatim_string={format=, string=}}.
void push_reply(lua_State* L, const Reply& reply, bool resp3 = false);

// Converts the Lua value on top of the stack (left in place) to the reply a client would see.
// `sha` names the running script for an {err=..., source=..., line=...} table's suffix. The one-field
// tables {double=}, {big_number=}, {map=}, {set=}, {verbatim_string=} give RESP3 kinds (a RESP2 caller gets
// them downgraded); `resp3` (the script called redis.setresp(3)) decides what booleans become.
Reply to_reply(lua_State* L, std::string_view sha, bool resp3 = false);

// The error reply for an error table on top of the stack: "<err> script: <sha>, on <source>:<line>."
// when it carries a source and a line (a raised error), otherwise just "<err>".
Reply error_table_to_reply(lua_State* L, std::string_view sha);

// Pushes Redis's error table {err="CODE message"} built from an error text as luaPushErrorBuff does:
// "-CODE msg" keeps CODE, a text without a leading '-' gets "ERR ".
void push_error_table(lua_State* L, std::string_view text);
// The field a redis.call error table carries when INFO errorstats already counted its error.
inline constexpr const char* kErrorStatsCounted = "ignore_error_stats_update";
// Whether the value on top of the stack is such a table.
bool error_stats_counted(lua_State* L);

// A Lua number as Redis's (long long) cast gives it on x86-64: truncation toward zero, and INT64_MIN
// for NaN, infinities and anything out of range. Integers go through double first, as in Lua 5.1.
std::int64_t lua_number_to_reply_integer(lua_State* L, int index);

}  // namespace lockcheck::mock
