#include "server_clock.hpp"

#include <time.h>

#include <cmath>
#include <limits>

#include "clock_offset.h"
#include "record_sink.hpp"

namespace lockcheck::redis_backend {

ServerClock::ServerClock(std::string path)
    : file_(std::move(path), sizeof(lockcheck_clock_offset), true), settings_{Setting{}} {}

lockcheck_clock_offset& ServerClock::state() const { return *static_cast<lockcheck_clock_offset*>(file_.data()); }

std::int64_t ServerClock::offset_ns() const {
  const lockcheck_clock_offset& s = state();
  if (s.drift_ppm == 0) return s.offset_ns;
  return s.offset_ns + (monotonic_ns() - s.drift_since_ns) / 1'000'000 * s.drift_ppm;
}

std::int64_t ServerClock::drift_ppm() const { return state().drift_ppm; }

void ServerClock::apply(const Setting& setting) {
  {
    std::lock_guard lock(mutex_);
    settings_.push_back(setting);
  }
  write_sequenced(state().sequence, [&] {
    state().offset_ns = setting.offset_ns;
    state().drift_ppm = setting.drift_ppm;
    state().drift_since_ns = setting.since_ns;
  });
}

void ServerClock::jump(std::int64_t delta_us) {
  const std::int64_t current = offset_ns();
  apply(Setting{monotonic_ns(), current + delta_us * 1000, state().drift_ppm});
}

void ServerClock::set_drift(std::int64_t drift_ppm) {
  const std::int64_t current = offset_ns();
  apply(Setting{monotonic_ns(), current, drift_ppm});
}

std::optional<std::int64_t> ServerClock::monotonic_ns_when_read(std::int64_t server_wall_us,
                                                                std::int64_t not_before_ns) const {
  // The two clocks read back to back: their difference moves only with NTP's slewing, microseconds a second.
  timespec wall{};
  clock_gettime(CLOCK_REALTIME, &wall);
  const std::int64_t monotonic_now_ns = monotonic_ns();
  const std::int64_t wall_minus_monotonic_ns =
      static_cast<std::int64_t>(wall.tv_sec) * 1'000'000'000 + wall.tv_nsec - monotonic_now_ns;
  std::vector<Setting> settings;
  {
    std::lock_guard lock(mutex_);
    settings = settings_;
  }
  for (std::size_t i = 0; i < settings.size(); ++i) {
    const Setting& setting = settings[i];
    const std::int64_t until_ns = i + 1 < settings.size() ? settings[i + 1].since_ns : std::numeric_limits<std::int64_t>::max();
    // The server's wall clock at t is t + wall_minus_monotonic + offset + (t - since) * drift: solved for t.
    const std::int64_t scaled_ns = server_wall_us * 1000 - wall_minus_monotonic_ns - setting.offset_ns - setting.since_ns;
    const std::int64_t at_ns =
        setting.since_ns + std::llround(static_cast<double>(scaled_ns) / (1.0 + static_cast<double>(setting.drift_ppm) / 1e6));
    if (at_ns >= setting.since_ns && at_ns < until_ns && at_ns >= not_before_ns) return at_ns;
  }
  return std::nullopt;
}

}  // namespace lockcheck::redis_backend
