#pragma once
// The history sink of a workload: where its op lines go, and the two clocks they are stamped with. The
// simulator's History at true (virtual) time; the redis backend's worker file at CLOCK_MONOTONIC since the
// run's start. The checkers read both the same way, so a line's fields must not depend on which.
#include <cstdint>

#include "model/history.hpp"
#include "lockcheck/time.hpp"

namespace lockcheck::sim {

class OpLog {
 public:
  virtual ~OpLog() = default;
  // The run's true time in microseconds: the workload stops starting rounds when it reaches the run's end.
  virtual std::int64_t now_us() = 0;
  // The process's own (maybe skewed) clock in microseconds: an op line's "local".
  virtual std::int64_t local_us() = 0;
  // A lease deadline on the process's monotonic clock, in true time and on the local clock (the lines'
  // "valid_until" and "valid_until_local").
  virtual std::int64_t true_time_of(MonoTime deadline) = 0;
  virtual std::int64_t local_of(MonoTime deadline) = 0;
  // Appends one line, begun at now_us() (HistoryLine: written as text as its fields are added, which is what
  // keeps a simulated op cheap).
  virtual void record(HistoryLine&& line) = 0;
};

}  // namespace lockcheck::sim
