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
  for (const Clause& clause : kClauses) {
    if (clause.liveness && selector.size() == clause.property.size() + 1 + clause.name.size() &&
        selector.substr(0, clause.property.size()) == clause.property && selector[clause.property.size()] == '/' &&
        selector.substr(clause.property.size() + 1) == clause.name) {
      return true;
    }
  }
  return false;
}

}  // namespace lockcheck::properties
