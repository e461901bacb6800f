#pragma once
// The clauses of the properties that make more than one promise (verdict.hpp): the names their checkers give
// a violation, and what `lockcheck explore --property P/CLAUSE` accepts.
#include <string_view>

namespace lockcheck::properties {

struct Clause {
  std::string_view property;
  std::string_view name;
  bool liveness = false;  // judged over a bound (unavailability_bound_us), as bounded_unavailability is
};

inline constexpr std::string_view kLatchOpenedEarly = "opened_early";
inline constexpr std::string_view kLatchNeverOpened = "never_opened";
inline constexpr std::string_view kTooManyHolders = "too_many_holders";
inline constexpr std::string_view kInflatedCount = "inflated_count";
inline constexpr std::string_view kPermitLost = "permit_lost";

inline constexpr Clause kClauses[] = {
    {"latch", kLatchOpenedEarly},
    {"latch", kLatchNeverOpened, true},
    {"permit_safety", kTooManyHolders},
    {"permit_safety", kInflatedCount},
    {"permit_safety", kPermitLost, true},
};

// Whether "property/clause" (a selector, verdict.hpp) is such a liveness clause.
constexpr bool is_liveness_clause(std::string_view selector) {
  const std::size_t slash = selector.find('/');
  if (slash == std::string_view::npos) return false;
  for (const Clause& clause : kClauses) {
    if (clause.liveness && clause.property == selector.substr(0, slash) && clause.name == selector.substr(slash + 1)) return true;
  }
  return false;
}

}  // namespace lockcheck::properties
