#include "server_clock.hpp"

#include <time.h>

#include "clock_offset.h"
#include "record_sink.hpp"

namespace lockcheck::redis_backend {

ServerClock::ServerClock(std::string path) : file_(std::move(path), sizeof(lockcheck_clock_offset), true) {}

lockcheck_clock_offset& ServerClock::state() const { return *static_cast<lockcheck_clock_offset*>(file_.data()); }

std::int64_t ServerClock::offset_ns() const {
  const lockcheck_clock_offset& s = state();
  if (s.drift_ppm == 0) return s.offset_ns;
  return s.offset_ns + (monotonic_ns() - s.drift_since_ns) / 1'000'000 * s.drift_ppm;
}

std::optional<std::int64_t> ServerClock::monotonic_ns_when_read(std::int64_t server_wall_us) const {
  struct Reading {
    std::int64_t offset_ns, drift_ppm, changed_ns;
  };
  const lockcheck_clock_offset& s = state();
  const Reading r = read_sequenced(s.sequence, [&] { return Reading{s.offset_ns, s.drift_ppm, s.drift_since_ns}; });
  if (r.drift_ppm != 0) return std::nullopt;
  // The two clocks read back to back: their difference moves only with NTP's slewing, microseconds a second.
  timespec wall{};
  clock_gettime(CLOCK_REALTIME, &wall);
  const std::int64_t monotonic_now_ns = monotonic_ns();
  const std::int64_t wall_now_ns = static_cast<std::int64_t>(wall.tv_sec) * 1'000'000'000 + wall.tv_nsec;
  const std::int64_t at_ns = server_wall_us * 1000 - r.offset_ns - (wall_now_ns - monotonic_now_ns);
  if (at_ns < r.changed_ns) return std::nullopt;
  return at_ns;
}

void ServerClock::jump(std::int64_t delta_us) {
  const std::int64_t current = offset_ns();
  write_sequenced(state().sequence, [&] {
    state().offset_ns = current + delta_us * 1000;
    state().drift_since_ns = monotonic_ns();
  });
}

void ServerClock::set_drift(std::int64_t drift_ppm) {
  const std::int64_t current = offset_ns();
  write_sequenced(state().sequence, [&] {
    state().offset_ns = current;
    state().drift_ppm = drift_ppm;
    state().drift_since_ns = monotonic_ns();
  });
}

}  // namespace lockcheck::redis_backend
