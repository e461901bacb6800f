#include "core/clock_model.hpp"

namespace lockcheck::sim {
namespace {
constexpr std::int64_t kMillion = 1000000;
}

std::int64_t ClockModel::monotonic_at(TrueTime t) const {
  const std::int64_t elapsed = t - anchor_true_;
  // elapsed * (1e6 + drift) / 1e6, split to keep the product far from overflow for long runs.
  const std::int64_t rate = kMillion + drift_ppm_;
  return anchor_monotonic_ + elapsed / kMillion * rate + elapsed % kMillion * rate / kMillion;
}

TrueTime ClockModel::true_time_of(std::int64_t monotonic_us) const {
  const std::int64_t rate = kMillion + drift_ppm_;
  const std::int64_t needed = monotonic_us - anchor_monotonic_;
  if (needed <= 0) return anchor_true_;
  // Invert the rate, rounding up, then step forward if integer division left us a microsecond short.
  TrueTime t = anchor_true_ + needed / rate * kMillion + (needed % rate * kMillion + rate - 1) / rate;
  for (int step = 0; step < 4 && monotonic_at(t) < monotonic_us; ++step) ++t;
  return t;
}

void ClockModel::set_drift(TrueTime now, std::int64_t drift_ppm) {
  anchor_monotonic_ = monotonic_at(now);
  anchor_true_ = now;
  drift_ppm_ = drift_ppm;
}

}  // namespace lockcheck::sim
