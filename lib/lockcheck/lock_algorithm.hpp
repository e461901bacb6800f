#pragma once
// The interface every lock variant implements, so the simulator, the CLI and the comparison reports drive
// each one the same way. Implementations talk to the world only through the seams (Port, Clock, Entropy).
#include <cstdint>
#include <optional>
#include <string>

#include "lockcheck/lease.hpp"
#include "lockcheck/task.hpp"

namespace lockcheck {

struct AcquireResult {
  AcquireStatus status = AcquireStatus::busy;
  std::optional<Lease> lease;  // set when status == acquired
  std::uint32_t attempts = 0;
  std::string detail;  // why not acquired, for messages
};

class LockAlgorithm {
 public:
  virtual ~LockAlgorithm() = default;
  // Tries until acquired or `wait` has passed on the monotonic clock (0: one attempt).
  virtual Task<AcquireResult> acquire(std::string key, Micros wait) = 0;
  // Safe to call more than once. Marks the lease lost in every case.
  virtual Task<ReleaseStatus> release(Lease& lease) = 0;
  // Extends the lease if it is still ours; on success its validity moves forward.
  virtual Task<RenewStatus> renew(Lease& lease) = 0;
};

}  // namespace lockcheck
