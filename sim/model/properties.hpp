#pragma once
// The properties lockcheck judges, in the one order every list of them uses: the checkers' verdicts
// (properties::check_all asserts it), the keys a scenario's [expect] may name, explore's profile and the
// reports' columns (reports/cell_status.cpp). A new property is one row here and its checker.
#include <array>
#include <cstddef>
#include <string_view>

namespace lockcheck::sim {

struct PropertyRow {
  std::string_view name;   // as histories' verdicts, scenario files and reports spell it
  std::string_view label;  // a report's column header
};

inline constexpr PropertyRow kProperties[] = {
    {"mutual_exclusion_server", "server level"},
    {"mutual_exclusion_client", "client level"},
    {"mutual_exclusion_resource", "resource level"},
    {"owner_only_release", "owner-only release"},
    {"bounded_unavailability", "bounded unavailability"},
    {"reentrancy", "reentrancy"},
    {"renewal", "renewal"},
    {"fencing", "fencing"},
    {"permit_safety", "permit safety"},
    {"latch", "latch"},
    {"fairness", "fairness"},
};

// The names alone, in that order: what an [expect] table may name.
inline constexpr auto kExpectableProperties = [] {
  std::array<std::string_view, std::size(kProperties)> names{};
  for (std::size_t i = 0; i < names.size(); ++i) names[i] = kProperties[i].name;
  return names;
}();

}  // namespace lockcheck::sim
