#pragma once
// `redisson-permit-expirable` — DELIBERATELY BROKEN, for study. Do not use it to protect anything; use
// lockcheck::CountingSemaphore.
//
// What it does: Redisson's RPermitExpirableSemaphore as its documentation describes it. A counter of free permits
// (set by the first acquire of a lock object unless it exists: trySetPermits) and a sorted set "<key>:timeout" of
// the permits out, each id scored by its expiry: the ACQUIRING CLIENT's wall clock plus the lease. Every acquire
// first takes back the ids whose expiry is at or below ITS OWN clock (INCRBY by their number), then DECRs the
// counter and adds its id when a permit is free (redisson_permit_expirable_acquire.lua). A release removes its id
// and INCRs the counter only when the id was still out; a renewal (updateLeaseTime) rescores its id from the
// caller's clock. The permit id is the acquire's 128-bit random token; busy acquirers poll with backoff.
//
// Where it comes from: Redisson's RPermitExpirableSemaphore (tryAcquire(lease), release(permitId),
// updateLeaseTime) and its tracker: redisson/redisson#4086 (the release of an expired permit reported success).
//
// What it guarantees: with the clients' clocks in step (within the validity margin), at most `permits` holders at
// once, and a dead holder's permit back after its lease. Where it breaks: a client whose clock runs ahead by d
// takes back every permit d before its holder's lease ends, so a holder in the last d of its lease shares its
// permit; ahead by more than the lease, every holder does (with one permit two clients hold at once,
// permit_safety: scenarios/redisson-permit-expirable-breaks-client-clock-ahead.toml; explore finds it with a
// 435 ms jump against a 1 s lease). An acquire retried after a lost reply DECRs twice for one id, and the second
// permit never comes back.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lockcheck/broken/redisson_permits.hpp"

namespace lockcheck::broken {

class RedissonPermitExpirableSemaphore final : public RedissonPermits {
 public:
  // Throws InvalidArgument when `permits` is 0.
  RedissonPermitExpirableSemaphore(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options,
                                   std::uint32_t permits, std::size_t node = 0);

  static std::string timeouts_key(const std::string& key) { return key + ":timeout"; }

 protected:
  Task<Attempt> attempt(const std::string& key, const std::string& token, bool after_lost_reply) override;
  Task<CallResult> release_call(const std::string& key, const std::string& token, const Request& request) override;
  Task<CallResult> renew_call(const std::string& key, const std::string& token) override;
};

}  // namespace lockcheck::broken
