#pragma once
// The run's handle on one redis-server's wall clock: writes the offset file its clock shim reads
// (clock_offset.h, clock_shim.c). Jumps and drift take effect at the server's next clock read.
#include <cstdint>
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

 private:
  lockcheck_clock_offset& state() const;

  SharedFile file_;
};

}  // namespace lockcheck::redis_backend
