#pragma once
// `semaphore` — the counting semaphore behind lockcheck::CountingSemaphore: up to `permits` holders of one key at
// once, each permit a lease with an owner.
//
// What it does: one sorted set per semaphore, a member per permit out: its id (the acquire's 128-bit random
// token) scored by its deadline on the SERVER's clock (the scripts read TIME; no client clock is trusted). An
// acquire drops the expired permits, then adds ours when fewer than `permits` are out (semaphore_acquire.lua);
// a release removes our id only (ZREM), a renew moves our deadline if it has not passed. Around the scripts, the
// token lock's careful loop (single_key_lock.hpp): backoff polling within the wait budget (no reliance on a
// release message), validity measured on the monotonic clock from before the attempt minus the drift margin,
// an acquire retried after a lost reply that recognises its own id, release and renew retried on a lost reply.
//
// Where it comes from: the safe answer to Redisson's RSemaphore (`redisson-semaphore`: no owner, no lease) and
// RPermitExpirableSemaphore (deadlines on the acquiring client's clock).
//
// What it guarantees, on one Redis master with a correct clock: at most `permits` holders inside their validity
// at once; a dead holder's permit back one TTL after its last grant or renewal; a retried release or acquire
// never counts twice. Where it breaks: what every single-instance lease breaks under (asynchronous failover, a
// restart without data, a server clock jump, a holder paused past its lease): see the token lock.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck {

class SemaphoreLock final : public detail::SingleKeyLock {
 public:
  // Throws InvalidArgument when `permits` is 0 (and for what SingleKeyLock refuses).
  SemaphoreLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::uint32_t permits,
                std::size_t node = 0);

  // A permit is one shared hold among `permits`: the public type's threads ask for it in shared mode
  // (OwnedLockOptions::counting), and every permit is the same kind of hold.
  Task<AcquireResult> acquire_shared(std::string key, Micros wait) override {
    co_return co_await acquire(std::move(key), wait);
  }

  std::uint32_t permits() const { return permits_; }

 protected:
  Task<Attempt> attempt(const std::string& key, const std::string& token, bool after_lost_reply) override;
  Task<CallResult> release_call(const std::string& key, const std::string& token, const Request& request) override;
  Task<CallResult> renew_call(const std::string& key, const std::string& token) override;

 private:
  std::uint32_t permits_;
};

}  // namespace lockcheck
