#pragma once
// Waiting between attempts on a busy lock: exponential from delay_min, capped at delay_max, with the
// actual delay drawn in [delay/2, delay] so that clients that lost the same race do not retry in lockstep.
#include <cstdint>

#include "lockcheck/entropy.hpp"
#include "lockcheck/lock_options.hpp"

namespace lockcheck {

// The pause before retry number `attempt` (1 for the first retry).
Micros backoff_delay(const RetryPolicy& retry, Entropy& entropy, std::uint32_t attempt);

}  // namespace lockcheck
