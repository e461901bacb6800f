#pragma once
// The interface of a count-down latch kept in Redis (std::latch's count_down and wait, across processes), so the
// simulator, the real backend's workers and the public type drive every latch variant the same way. A latch is a
// LockAlgorithm too, so the catalogue builds it by id like any variant (variants/registry.hpp); it has no
// acquire, release or renew, and those throw InvalidArgument. Implementations talk to the world only through the
// seams (Port, Clock, Entropy).
#include <cstdint>
#include <string>

#include "lockcheck/errors.hpp"
#include "lockcheck/lock_algorithm.hpp"

namespace lockcheck {

enum class CountDownStatus : std::uint8_t {
  counted,      // the server recorded it (and, where the latch asks for it, its replicas acknowledged it)
  unreachable,  // certainly not recorded: no attempt reached the server
  unknown,      // maybe recorded: a reply was lost or the replicas did not acknowledge it within the budget
};
const char* to_string(CountDownStatus status);

struct CountDownResult {
  CountDownStatus status = CountDownStatus::unknown;
  std::int64_t remaining = -1;  // the count left after it, as the server said (-1: no reply)
  std::uint32_t attempts = 0;
  std::string detail;
};

enum class LatchWaitStatus : std::uint8_t {
  opened,       // the count reached zero
  timed_out,    // still closed when the wait budget was spent
  unreachable,  // no attempt got a reply within the budget
};
const char* to_string(LatchWaitStatus status);

struct LatchWaitResult {
  LatchWaitStatus status = LatchWaitStatus::timed_out;
  std::uint32_t polls = 0;
  std::string detail;
};

class LatchAlgorithm : public LockAlgorithm {
 public:
  // What a party does before it uses the latch `key` (an application's setup, before its workers start): Redisson's
  // trySetCount. Default: nothing (a latch that carries its count in every call needs no setup).
  virtual Task<void> set_up(std::string key) {
    (void)key;
    co_return;
  }
  // Counts the latch `key` down by one, as `participant` (an id unique to the counting party: a latch that records
  // contributions by id counts one participant once, however often it is retried or repeated; the latches that
  // record nothing ignore it). Retries within `budget` on the monotonic clock, then gives up.
  virtual Task<CountDownResult> count_down(std::string key, std::string participant, Micros budget) = 0;
  // Returns once the latch `key` is open, or when `wait` has passed on the monotonic clock.
  virtual Task<LatchWaitResult> wait(std::string key, Micros wait) = 0;
  // How many count_downs open the latch.
  virtual std::uint32_t count() const = 0;

  // A latch has no lease: these throw InvalidArgument.
  Task<AcquireResult> acquire(std::string key, Micros wait) final;
  Task<ReleaseStatus> release(Lease& lease) final;
  Task<RenewStatus> renew(Lease& lease) final;
};

}  // namespace lockcheck
