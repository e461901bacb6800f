#include "lockcheck/backoff.hpp"

#include <algorithm>

namespace lockcheck {

Micros backoff_delay(const RetryPolicy& retry, Entropy& entropy, std::uint32_t attempt) {
  Micros delay = retry.delay_min;
  for (std::uint32_t i = 1; i < attempt && delay < retry.delay_max; ++i) delay *= 2;
  delay = std::min(delay, retry.delay_max);
  const auto half = delay.count() / 2;
  return Micros(half + static_cast<Micros::rep>(entropy.uniform(static_cast<std::uint64_t>(delay.count() - half) + 1)));
}

}  // namespace lockcheck
