#pragma once
// A client process's clocks on the redis backend, as the simulator's ClockModel has them: the monotonic clock
// runs drift_ppm fast (never jumps), the wall clock follows it plus an offset that jumps. The run owns the
// state (a small shared file per process: skew from the scenario, client_clock_jump / client_clock_drift
// faults); the worker's lock code reads it through the Clock seam, so a skewed client is the same library
// code with a different Clock, not a model of it.
#include <cstdint>
#include <string>

#include "lockcheck/clock.hpp"
#include "shared_file.hpp"

namespace lockcheck::redis_backend {

class ClientClockState {
 public:
  // create: the run makes the file (anchored at `start_ns`, CLOCK_MONOTONIC); otherwise a worker maps it.
  ClientClockState(std::string path, bool create, std::int64_t start_ns = 0, std::int64_t wall_offset_us = 0,
                   std::int64_t drift_ppm = 0);
  const std::string& path() const { return file_.path(); }

  // The run.
  // Anchors the clock at the run's time 0 (the clients' readiness, start_gate.hpp), keeping its skew and drift:
  // drift accrues from time 0, as in the simulator. Before any worker reads the clock for its workload.
  void start_at(std::int64_t start_ns);
  void jump_wall(std::int64_t delta_us);
  void set_drift(std::int64_t drift_ppm);

  // Anyone: the process's monotonic reading (ns) at CLOCK_MONOTONIC time `true_ns`, its inverse, and the wall
  // offset (ns) from the real wall clock at `true_ns`.
  std::int64_t local_at(std::int64_t true_ns) const;
  std::int64_t true_time_of(std::int64_t local_ns) const;
  std::int64_t wall_offset_at(std::int64_t true_ns) const;
  std::int64_t drift_ppm() const;

 private:
  struct Layout;
  struct Reading;
  Layout& layout() const;
  Reading read() const;
  SharedFile file_;
};

// The Clock seam over a ClientClockState: what the worker's lock code and workload use.
class ClientClock final : public Clock {
 public:
  explicit ClientClock(const ClientClockState& state) : state_(state) {}
  MonoTime monotonic_now() override;
  Millis wall_now() override;
  Task<void> sleep(Micros duration) override;
  // Wakes early once `stop` is requested: a thread waiting locally for another thread of the worker to
  // unlock (OwnedLock), or a renewal loop whose holder released, resumes at once.
  Task<void> sleep_unless_stopped(Micros duration, StopSignal& stop) override;

 private:
  // `duration` on this process's clock, in true time (a fast clock's microsecond is shorter).
  Micros true_duration(Micros duration) const;
  const ClientClockState& state_;
};

}  // namespace lockcheck::redis_backend
