#pragma once
// The interface every lock variant implements, so the simulator, the CLI and the comparison reports drive
// each one the same way. Implementations talk to the world only through the seams (Port, Clock, Entropy).
#include <cstdint>
#include <optional>
#include <string>

#include "lockcheck/errors.hpp"
#include "lockcheck/lease.hpp"
#include "lockcheck/task.hpp"

namespace lockcheck {

struct AcquireResult {
  AcquireStatus status = AcquireStatus::busy;
  std::optional<Lease> lease;  // set when status == acquired
  std::uint32_t attempts = 0;
  std::string detail;  // why not acquired, for messages
  // When an attempt last found the lock held by another owner (its reply's arrival, on the monotonic clock).
  // Empty when none did: a busy acquire without it failed for other reasons only (a grant that came too late,
  // WAIT without a replica, a refused reentry, a quorum that lost requests rather than met holders).
  std::optional<MonoTime> refused_at;
};

class LockAlgorithm {
 public:
  virtual ~LockAlgorithm() = default;
  // Tries until acquired or `wait` has passed on the monotonic clock (0: one attempt).
  virtual Task<AcquireResult> acquire(std::string key, Micros wait) = 0;
  // acquire() asking for a lease of `ttl` instead of the options' TTL, for reentrant locks whose nested
  // acquire may ask for a different lease than the outer one (F17: lock(60 s), then lock(1 s) inside).
  // Only the reentrant variants (reentrant-hash, reentrant-maxttl, appid-thread) honour `ttl`; every other
  // variant keeps this default, which ignores `ttl` and calls acquire(), so existing variants and callers
  // are unchanged. Whether a reentry may shorten the key's TTL is the variant's documented choice.
  virtual Task<AcquireResult> acquire_with_ttl(std::string key, Micros wait, Millis ttl) {
    (void)ttl;
    co_return co_await acquire(std::move(key), wait);
  }
  // Read-write locks: a shared (read) acquire, compatible with other shared holds and with no exclusive one;
  // the lease comes back with `shared` set. acquire() is the exclusive (write) acquire. Only read-write
  // variants (rw-owned, rw-two-keys) override it; the default throws InvalidArgument.
  virtual Task<AcquireResult> acquire_shared(std::string key, Micros wait) {
    (void)key;
    (void)wait;
    throw InvalidArgument("this variant has no shared mode");
    co_return AcquireResult{};
  }
  // Releases a shared lease. Default: release(), for variants whose release tells the modes apart itself.
  virtual Task<ReleaseStatus> release_shared(Lease& lease) { co_return co_await release(lease); }
  // Safe to call more than once. Marks the lease lost in every case.
  virtual Task<ReleaseStatus> release(Lease& lease) = 0;
  // Extends the lease if it is still ours; on success its validity moves forward.
  virtual Task<RenewStatus> renew(Lease& lease) = 0;
};

}  // namespace lockcheck
