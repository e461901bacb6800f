#pragma once
// The history sink of a workload: where its op lines go, and the two clocks they are stamped with. The
// simulator's History at true (virtual) time; the redis backend's worker file at CLOCK_MONOTONIC since the
// run's start. The checkers read both the same way, so a line's fields must not depend on which.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "lockcheck/time.hpp"

namespace lockcheck::sim {

using Json = nlohmann::ordered_json;

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
  // Appends one line of `kind` ("op") at now_us(); `fields` follow the line's time and kind, in their order.
  virtual void record(const char* kind, const Json& fields) = 0;
};

}  // namespace lockcheck::sim
