#pragma once
// "Did you mean ...?" for a misspelt name in a scenario file (a key, a variant id): the known name closest to
// it by edit distance, ignoring case, if close enough to be a slip rather than a different word.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace lockcheck::sim::scenario_detail {

// The first of `known` at the least distance from `wrong`, when that distance is at most a third of the
// longer name (at least 1); nullopt when none is that close.
std::optional<std::string> closest_name(std::string_view wrong, std::span<const std::string_view> known);

// The suffix an error message gets: " (did you mean 'x'?)", or "" when nothing is close.
std::string did_you_mean(std::string_view wrong, std::span<const std::string_view> known);

}  // namespace lockcheck::sim::scenario_detail
