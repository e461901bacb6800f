#include "server_clock.hpp"

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
