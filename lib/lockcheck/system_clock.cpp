#include <thread>

#include "lockcheck/clock.hpp"

namespace lockcheck {

MonoTime SystemClock::monotonic_now() {
  return std::chrono::duration_cast<Micros>(std::chrono::steady_clock::now().time_since_epoch());
}

Millis SystemClock::wall_now() {
  return std::chrono::duration_cast<Millis>(std::chrono::system_clock::now().time_since_epoch());
}

Task<void> SystemClock::sleep(Micros duration) {
  if (duration > Micros::zero()) std::this_thread::sleep_for(duration);
  co_return;
}

Task<void> SystemClock::sleep_unless_stopped(Micros duration, StopSignal& stop) {
  if (duration > Micros::zero()) stop.wait_for(duration);
  co_return;
}

}  // namespace lockcheck
