#pragma once
// Options every TTL lock shares, with defaults chosen to be safe rather than fast.
#include <cstdint>
#include <string>

#include "lockcheck/time.hpp"

namespace lockcheck {

struct RetryPolicy {
  // Waiting for a busy lock: exponential backoff from min to max, each delay drawn in [delay/2, delay].
  Micros delay_min{Millis(2)};
  Micros delay_max{Millis(50)};
  // Upper bound on attempts in one acquire, whatever the wait budget.
  std::uint32_t max_attempts = 100000;
  // Extra attempts after a lost reply, even when the wait budget is spent, so one dropped packet does not
  // leave a ghost lock behind or report a false "busy".
  std::uint32_t unknown_outcome_attempts = 2;
  // Attempts for release and renew, which are safe to repeat (compare-and-delete, compare-and-pexpire).
  std::uint32_t idempotent_attempts = 3;
};

struct LockOptions {
  Millis ttl{Millis(30000)};
  // Validity = TTL − elapsed − drift margin; the margin is ttl * clock_drift_ppm / 1e6 + drift_floor.
  // 1% + 2 ms as in the Redlock analysis: server clocks may run a little fast.
  std::uint32_t clock_drift_ppm = 10000;
  Millis drift_floor{Millis(2)};
  RetryPolicy retry{};
};

// Limits that catch mistakes: a TTL of 0 means "no expiry" to some clients, and 10 years is a bug.
inline constexpr Millis kMinTtl{10};
inline constexpr Millis kMaxTtl{Millis(30LL * 24 * 3600 * 1000)};
inline constexpr std::size_t kMaxKeyBytes = 64 * 1024;

// Throws InvalidArgument with a clear message when the key or options are out of range.
void validate_lock_key(const std::string& key);
void validate_lock_options(const LockOptions& options);

// The margin subtracted from a TTL to absorb clock drift between client and server.
Micros drift_margin(const LockOptions& options);

}  // namespace lockcheck
