#pragma once
// The optional count argument of LPOP, RPOP, SPOP, ZPOPMIN and ZPOPMAX: key [count], nothing after it.
#include <cstdint>
#include <optional>

#include "redis/command_table/errors.hpp"
#include "redis/util/numbers.hpp"

namespace lockcheck::mock {

struct PopCount {
  std::int64_t count = 1;
  bool given = false;  // a count, even 1, changes the reply's shape to an array
};

// From args[2]; nullopt with `error` set for extra arguments or a count that is not a non-negative integer.
inline std::optional<PopCount> parse_pop_count(const Command& args, Reply& error) {
  if (args.size() > 3) return error = err::syntax(), std::nullopt;
  if (args.size() < 3) return PopCount{};
  auto parsed = parse_int64(args[2]);
  if (!parsed || *parsed < 0) return error = Reply::error("ERR value is out of range, must be positive"), std::nullopt;
  return PopCount{*parsed, true};
}

}  // namespace lockcheck::mock
