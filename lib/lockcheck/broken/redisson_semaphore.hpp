#pragma once
// `redisson-semaphore` — DELIBERATELY BROKEN, for study. Do not use it to protect anything; use
// lockcheck::CountingSemaphore.
//
// What it does: Redisson's RSemaphore as its documentation describes it. One string key counts the free
// permits. The first acquire of a lock object sets it to the semaphore's size unless it exists (trySetPermits:
// the first client wins). An acquire DECRBYs it by one when at least one permit is free; a release INCRBYs it and
// PUBLISHes the new count on "redisson_sc:{<key>}", where busy acquirers wait (subscribed once per lock object,
// then a retry at once, then a wait for a message of at most the rest of the wait budget, as Redisson's
// tryAcquire(wait) does; polling with backoff where the port has no plain pub/sub). No owner, no lease: a permit
// is held until its holder calls release, so the lease this lock hands out is valid for kMaxTtl.
//
// Where it comes from: Redisson's RSemaphore (acquire, tryAcquire, release, trySetPermits) and its tracker:
// redisson/redisson#2045, #2213, #4462 (a holder that dies never returns its permit), #5762 (missed release
// messages leave waiters waiting out their timeout).
//
// What it guarantees: without faults, at most `permits` holders at once.
// Where it breaks: a holder that crashes keeps its permit for good (permit_safety: a permit lost for longer
// than the lease; scenarios/redisson-semaphore-breaks-crashed-holder-leaks-permit.toml); a release retried after
// its reply was lost returns a permit twice, and from then on one more holder than permits is let in
// (permit_safety at the client level; scenarios/redisson-semaphore-breaks-retried-release-inflates.toml). An
// acquire retried after a lost reply takes a second permit that nobody returns.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lockcheck/broken/redisson_permits.hpp"

namespace lockcheck::broken {

class RedissonSemaphore final : public RedissonPermits {
 public:
  // Throws InvalidArgument when `permits` is 0.
  RedissonSemaphore(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options, std::uint32_t permits,
                    std::size_t node = 0);

 protected:
  Task<Attempt> attempt(const std::string& key, const std::string& token, bool after_lost_reply) override;
  Task<CallResult> release_call(const std::string& key, const std::string& token, const Request& request) override;
  // Throws InvalidArgument: a permit has no lease to renew.
  Task<CallResult> renew_call(const std::string& key, const std::string& token) override;
  Task<void> wait_to_retry(const std::string& key, Micros pause, Micros left) override;

 private:
  bool subscribed_ = false;
  bool pubsub_unavailable_ = false;
};

}  // namespace lockcheck::broken
