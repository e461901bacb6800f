#pragma once
// The Clock seam: every notion of time a lock algorithm has comes through here.
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
};

// steady_clock / system_clock and a blocking sleep: the production clock.
class SystemClock final : public Clock {
 public:
  MonoTime monotonic_now() override;
  Millis wall_now() override;
  Task<void> sleep(Micros duration) override;
};

}  // namespace lockcheck
