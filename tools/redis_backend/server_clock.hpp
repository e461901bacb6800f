#pragma once
// The run's handle on one redis-server's wall clock: writes the offset file its clock shim reads
// (clock_offset.h, clock_shim.c). Jumps and drift take effect at the server's next clock read.
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

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
  std::int64_t drift_ppm() const;
  // When, on CLOCK_MONOTONIC, the server's wall clock read `server_wall_us` (a MONITOR line's stamp), no earlier
  // than `not_before_ns` (the stamp before it in the same stream: after a move back the clock shows some readings
  // twice). Each setting the run gave the clock (offset, drift) holds from its move to the next: the answer is
  // the first moment, under the setting of its time, at which the clock read that. nullopt when there is none
  // (a stamp that straddles a move by microseconds): the caller keeps when it read the stamp.
  std::optional<std::int64_t> monotonic_ns_when_read(std::int64_t server_wall_us, std::int64_t not_before_ns) const;

 private:
  // One setting: from `since_ns` the offset is offset_ns + (t - since_ns) / 1e6 * drift_ppm, as the shim reads it.
  struct Setting {
    std::int64_t since_ns = 0;
    std::int64_t offset_ns = 0;
    std::int64_t drift_ppm = 0;
  };
  lockcheck_clock_offset& state() const;
  void apply(const Setting& setting);

  SharedFile file_;
  mutable std::mutex mutex_;       // guards settings_: the run moves the clock while observers map stamps
  std::vector<Setting> settings_;  // in order of their moves; the first from the start
};

}  // namespace lockcheck::redis_backend
