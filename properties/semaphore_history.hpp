#pragma once
// A semaphore's history (meta "permits" > 0) has up to that many holders at once by design: mutual exclusion,
// owner-only release and bounded unavailability, which judge one holder per lock, do not apply to it, and
// permit_safety judges it instead. Each of those checkers answers with this.
#include <string_view>

#include "history.hpp"
#include "verdict.hpp"

namespace lockcheck::properties {

// `property`'s verdict on a semaphore's history: unknown, saying permit_safety judges it.
Verdict judged_by_permit_safety(std::string_view property, const History& history);

}  // namespace lockcheck::properties
