#include "semaphore_history.hpp"

#include <fmt/format.h>

namespace lockcheck::properties {

Verdict judged_by_permit_safety(std::string_view property, const History& history) {
  Verdict verdict;
  verdict.property = std::string(property);
  verdict.outcome = Outcome::unknown;
  verdict.summary = fmt::format("not applicable: a semaphore of {} permit(s) may have that many holders "
                                "(permit_safety judges it)", history.meta.permits);
  return verdict;
}

}  // namespace lockcheck::properties
