#pragma once
// What a successful acquire hands back: the proof of ownership and how long it may be trusted.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "lockcheck/assert.hpp"
#include "lockcheck/clock.hpp"
#include "lockcheck/stop_signal.hpp"

namespace lockcheck {

// Shared by a lease's copies and its background renewal (a watchdog): the validity renewals moved forward,
// whether renewal learned the lock is lost, and the signal that stops renewal. Thread-safe: a production
// watchdog writes it from its own thread while the holder reads it.
class LeaseRenewal {
 public:
  explicit LeaseRenewal(MonoTime valid_until) : valid_until_us_(valid_until.count()) {}
  MonoTime valid_until() const { return MonoTime(valid_until_us_.load()); }
  // Never moves the validity back. One writer only: the renewal loop.
  void extend_to(MonoTime valid_until) {
    const std::int64_t before = valid_until_us_.load();
    valid_until_us_.store(std::max(before, valid_until.count()));
    LOCKCHECK_ASSERT(valid_until_us_.load() >= before);  // one writer: the validity only moves forward
  }
  bool lost() const { return lost_.load(); }
  void mark_lost() { lost_.store(true); }
  StopSignal& stop() { return stop_; }

  // The renewal loop brackets each renewal with these; begin_renewal() is false once stop was requested,
  // and then no renewal may start.
  bool begin_renewal() {
    std::lock_guard lock(in_flight_mutex_);
    if (retired_ || stop_.requested()) return false;
    in_flight_ = true;
    return true;
  }
  // True once renewal was stopped for good (the lease was released) or the loop was told to stop.
  bool retired() const {
    std::lock_guard lock(in_flight_mutex_);
    return retired_ || stop_.requested();
  }
  void end_renewal() {
    std::lock_guard lock(in_flight_mutex_);
    in_flight_ = false;
  }
  // Stops renewal for good: no renewal may start from now on. True when one is in flight: the caller must
  // wake the loop (stop().request()) and wait for it to finish before releasing; false means none is and
  // none will start, so the release may go at once, and the loop may be woken after it (waking it first
  // would put a thread wake-up on the release's path).
  bool stop_renewal() {
    std::lock_guard lock(in_flight_mutex_);
    retired_ = true;
    return in_flight_;
  }

 private:
  std::atomic<std::int64_t> valid_until_us_;
  std::atomic<bool> lost_{false};
  StopSignal stop_;
  mutable std::mutex in_flight_mutex_;
  bool in_flight_ = false;
  bool retired_ = false;  // set by stop_renewal()
};

// A reentrant variant's mark on the leases it granted: released once release() ran on one of the lease's copies.
// While a lease with an unreleased mark lives, a nested acquire by the same lock object re-enters that hold
// and never starts a fresh one (see ReentrantHashLock).
struct HoldMark {
  std::atomic<bool> released{false};
};

struct Lease {
  std::string key;
  std::string token;
  // When the acquiring request was sent, on the monotonic clock: the server's TTL started after this.
  MonoTime sent_at{};
  // sent_at + TTL − drift margin. Past this instant the lock may belong to someone else.
  MonoTime valid_until{};
  // Strictly increasing per lock for fencing variants; 0 when the variant has none.
  std::int64_t fencing_token = 0;
  // Set when a renew or release learned that the key no longer holds our token.
  bool known_lost = false;
  // The clock valid_until is measured on; lost() reads it.
  Clock* clock = nullptr;
  // A shared (read) lease of a read-write lock (LockAlgorithm::acquire_shared); false for exclusive ones.
  bool shared = false;
  // Set while a background renewal (watchdog) keeps this lease alive: its validity and lost signal count.
  std::shared_ptr<LeaseRenewal> renewal{};
  // Set by reentrant variants (HoldMark); empty for the others.
  std::shared_ptr<HoldMark> hold_mark{};

  Micros remaining() const {
    if (known_lost || clock == nullptr) return Micros::zero();
    MonoTime until = valid_until;
    if (renewal) {
      if (renewal->lost()) return Micros::zero();
      until = std::max(until, renewal->valid_until());
    }
    const Micros left = until - clock->monotonic_now();
    return left > Micros::zero() ? left : Micros::zero();
  }
  // True once the lease can no longer be trusted: validity ran out, or the server said it is not ours.
  bool lost() const { return remaining() == Micros::zero(); }
};

enum class AcquireStatus {
  acquired,     // lease is valid
  busy,         // someone else held the lock for the whole wait budget
  unreachable,  // no attempt got a reply
  unknown,      // an attempt's reply was lost and the cleanup could not confirm the key is free of our token
};

enum class ReleaseStatus {
  released,   // our key was deleted (or a retried release found it gone after a lost reply)
  not_owned,  // the key no longer held our token: it had expired, so the lease was lost before release
  unknown,    // no reply after every retry; the key expires by its TTL at the latest
};

enum class RenewStatus {
  renewed,  // the TTL was reset; the lease's validity moved forward
  lost,     // the key no longer held our token; the lease is marked lost
  unknown,  // no reply after every retry; the lease keeps its old validity
};

const char* to_string(AcquireStatus status);
const char* to_string(ReleaseStatus status);
const char* to_string(RenewStatus status);

}  // namespace lockcheck
