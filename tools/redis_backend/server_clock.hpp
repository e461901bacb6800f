#pragma once
// The run's handle on one redis-server's wall clock: writes the offset file its clock shim reads
// (clock_offset.h, clock_shim.c). Jumps and drift take effect at the server's next clock read.
#include <cstdint>
#include <optional>
#include <string>

#include "shared_file.hpp"

struct lockcheck_clock_offset;

namespace lockcheck::redis_backend {

class ServerClock {
 public:
  explicit ServerClock(std::string path);
  const std::string& path() const { return file_.path(); }

  void jump(std::int64_t delta_us);
  // From now on the server's wall clock runs drift_ppm parts per million fast (negative: slow).
  void set_drift(std::int64_t drift_ppm);
  std::int64_t offset_ns() const;
  // When, on CLOCK_MONOTONIC, the server's wall clock read `server_wall_us` (a MONITOR line's stamp): the real
  // wall clock then was that minus the offset. nullopt when the offset now may not be the offset then: the
  // clock drifts, or the answer falls before its last move. (A move back after that moment maps it later
  // than it was: callers keep the earlier of this and when they read the stamp.)
  std::optional<std::int64_t> monotonic_ns_when_read(std::int64_t server_wall_us) const;

 private:
  lockcheck_clock_offset& state() const;

  SharedFile file_;
};

}  // namespace lockcheck::redis_backend
