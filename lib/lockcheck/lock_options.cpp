#include "lockcheck/lock_options.hpp"

#include <fmt/format.h>

#include "lockcheck/errors.hpp"

namespace lockcheck {

void validate_lock_key(const std::string& key) {
  if (key.empty()) throw InvalidArgument("lock key must not be empty");
  if (key.size() > kMaxKeyBytes) {
    throw InvalidArgument(fmt::format("lock key is {} bytes; the limit is {}", key.size(), kMaxKeyBytes));
  }
}

void validate_lock_options(const LockOptions& options) {
  if (options.ttl < kMinTtl || options.ttl > kMaxTtl) {
    throw InvalidArgument(fmt::format("lock TTL {} ms is out of range [{}, {}] ms", options.ttl.count(),
                                      kMinTtl.count(), kMaxTtl.count()));
  }
  if (drift_margin(options) >= options.ttl) {
    throw InvalidArgument(fmt::format("lock TTL {} ms leaves no validity after the drift margin of {} us",
                                      options.ttl.count(), drift_margin(options).count()));
  }
  if (options.clock_drift_ppm > 500000) {
    throw InvalidArgument(fmt::format("clock_drift_ppm {} is above 500000 (50%)", options.clock_drift_ppm));
  }
  const RetryPolicy& retry = options.retry;
  if (retry.delay_min <= Micros::zero() || retry.delay_max < retry.delay_min) {
    throw InvalidArgument("retry delays must satisfy 0 < delay_min <= delay_max");
  }
  if (retry.max_attempts == 0 || retry.idempotent_attempts == 0) {
    throw InvalidArgument("retry.max_attempts and retry.idempotent_attempts must be at least 1");
  }
}

Micros drift_margin(const LockOptions& options) {
  const auto ttl_us = std::chrono::duration_cast<Micros>(options.ttl);
  return Micros(ttl_us.count() / 1000000 * options.clock_drift_ppm +
                ttl_us.count() % 1000000 * options.clock_drift_ppm / 1000000) +
         std::chrono::duration_cast<Micros>(options.drift_floor);
}

}  // namespace lockcheck
