#pragma once
// "Did you mean ...?" for a misspelt name in a scenario file (a key, a variant id): the known name closest to
// it by edit distance, ignoring case, if close enough to be a slip rather than a different word.
#include <span>
#include <string>
#include <string_view>

namespace lockcheck::sim::scenario_detail {

// The suffix an error message gets: " (did you mean 'x'?)" for the first of `known` at the least distance from
// `wrong` when that distance is at most a third of the longer name (at least 1), or "" when none is that close.
// `shown`, when given (one per known name), is how each is written in the message: "[[faults]]" for the table
// matched as "faults".
std::string did_you_mean(std::string_view wrong, std::span<const std::string_view> known,
                         std::span<const std::string_view> shown = {});

}  // namespace lockcheck::sim::scenario_detail
