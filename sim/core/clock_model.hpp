#pragma once
// How one machine's clocks relate to true time: a rate error (drift, parts per million), a constant
// offset of the wall clock, and steps (jumps) of the wall clock. The monotonic clock drifts with the
// hardware but never jumps, as steady_clock; the wall clock (what Redis expires keys by) does both.
#include <cstdint>

#include "core/scheduler.hpp"

namespace lockcheck::sim {

// 2026-01-01T00:00:00Z: simulated wall clocks start here so timestamps look like real ones.
inline constexpr std::int64_t kWallEpochUs = 1767225600LL * 1000000;

class ClockModel {
 public:
  ClockModel() = default;
  ClockModel(std::int64_t wall_offset_us, std::int64_t drift_ppm) : wall_offset_us_(wall_offset_us), drift_ppm_(drift_ppm) {}

  // Monotonic reading at true time t, in microseconds.
  std::int64_t monotonic_at(TrueTime t) const;
  // Wall-clock reading (Unix microseconds) at true time t.
  std::int64_t wall_at(TrueTime t) const { return kWallEpochUs + monotonic_at(t) + wall_offset_us_ + jumps_us_; }
  // The earliest true time at which the monotonic clock reads at least `monotonic_us`.
  TrueTime true_time_of(std::int64_t monotonic_us) const;

  // Changes the rate from true time `now` on, keeping readings continuous.
  void set_drift(TrueTime now, std::int64_t drift_ppm);
  // Steps the wall clock (forward when positive); the monotonic clock is unaffected.
  void jump(std::int64_t delta_us) { jumps_us_ += delta_us; }
  std::int64_t drift_ppm() const { return drift_ppm_; }

 private:
  TrueTime anchor_true_ = 0;
  std::int64_t anchor_monotonic_ = 0;
  std::int64_t wall_offset_us_ = 0;
  std::int64_t drift_ppm_ = 0;
  std::int64_t jumps_us_ = 0;
};

}  // namespace lockcheck::sim
