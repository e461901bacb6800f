#pragma once
// The Clock seam: every notion of time a lock algorithm has comes through here.
#include "lockcheck/stop_signal.hpp"
#include "lockcheck/task.hpp"
#include "lockcheck/time.hpp"

namespace lockcheck {

class Clock {
 public:
  virtual ~Clock() = default;
  // Monotonic time: what validity and timeouts are measured on. Never goes back.
  virtual MonoTime monotonic_now() = 0;
  // Wall-clock time in milliseconds since the Unix epoch: only for variants that (unwisely) send it to Redis.
  virtual Millis wall_now() = 0;
  // Resumes after `duration` has passed on this clock.
  virtual Task<void> sleep(Micros duration) = 0;
  // Like sleep(), but resumes early once `stop` is requested, so a background renewal loop ends promptly
  // when its holder releases. The default sleeps the whole duration (the caller re-checks `stop`).
  virtual Task<void> sleep_unless_stopped(Micros duration, StopSignal& stop) {
    (void)stop;
    co_await sleep(duration);
  }
};

// steady_clock / system_clock and a blocking sleep: the production clock.
class SystemClock final : public Clock {
 public:
  MonoTime monotonic_now() override;
  Millis wall_now() override;
  Task<void> sleep(Micros duration) override;
  Task<void> sleep_unless_stopped(Micros duration, StopSignal& stop) override;
};

}  // namespace lockcheck
