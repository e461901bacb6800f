#pragma once
// Where a command's keys are among its arguments: part of its row (command.hpp), read by COMMAND INFO and
// GETKEYS (commands/admin) and the ACL key checks (command_keys.hpp -> acl/acl_key_access.cpp).
#include <cstdint>

namespace lockcheck::mock {

// What COMMAND GETKEYS makes of a count that does not fit the arguments (redis-server 7.0.15, by redis-cli).
enum class CountedGetkeys : std::uint8_t {
  kStrict,   // an error (ZUNION, SINTERCARD, LMPOP, ZUNIONSTORE)
  kLenient,  // no keys (EVAL, FCALL: their getkeys procedure gives up quietly)
};

struct KeySpec {
  // COMMAND INFO's range: first key, last (-1: to the end, -2: all but the last), step; first 0: no range.
  int first = 0, last = 0, step = 0;
  // > 0: after the range's keys, args[count_at] counts the keys right after it (EVAL, ZUNIONSTORE, LMPOP).
  int count_at = 0;
  // COMMAND INFO's movablekeys: some keys are found by a count or a keyword (GEORADIUS's STORE, XREAD's STREAMS).
  bool movable = false;
  CountedGetkeys getkeys = CountedGetkeys::kStrict;
};

// The shapes rows use most. A row states one: CommandSpec has no constructor without a KeySpec.
inline constexpr KeySpec kNoKeys{};
inline constexpr KeySpec kFirstKey{.first = 1, .last = 1, .step = 1};
inline constexpr KeySpec kFirstTwoKeys{.first = 1, .last = 2, .step = 1};         // RENAME, LMOVE, LCS
inline constexpr KeySpec kEveryKey{.first = 1, .last = -1, .step = 1};            // DEL, MGET, SINTER
inline constexpr KeySpec kKeysThenTimeout{.first = 1, .last = -2, .step = 1};     // BLPOP
inline constexpr KeySpec kKeyValuePairs{.first = 1, .last = -1, .step = 2};       // MSET
// EVAL, FCALL: the script or function, then numkeys and the keys.
inline constexpr KeySpec kScriptKeys{.count_at = 2, .movable = true, .getkeys = CountedGetkeys::kLenient};

constexpr KeySpec key_range(int first, int last, int step) { return KeySpec{.first = first, .last = last, .step = step}; }
// Keys counted by args[count_at], after `before`'s (ZUNIONSTORE: its destination, then numkeys at 2).
constexpr KeySpec counted_keys(int count_at, KeySpec before = kNoKeys) {
  before.count_at = count_at;
  return before;
}
constexpr KeySpec movable_keys(KeySpec spec) {
  spec.movable = true;
  return spec;
}

}  // namespace lockcheck::mock
