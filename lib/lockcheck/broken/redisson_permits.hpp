#pragma once
// What Redisson's two semaphores (`redisson-semaphore`, `redisson-permit-expirable`) share: a counter of free
// permits that the first acquire of a lock object sets to the semaphore's size unless it exists (RSemaphore's and
// RPermitExpirableSemaphore's trySetPermits: the first client wins), then the careful acquire loop of
// single_key_lock.hpp around the variant's own attempt. Not a variant on its own.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck::broken {

class RedissonPermits : public detail::SingleKeyLock {
 public:
  Task<AcquireResult> acquire(std::string key, Micros wait) override;

  // The channel Redisson's waiters listen on and its releases PUBLISH to.
  static std::string channel_of(const std::string& key) { return "redisson_sc:{" + key + "}"; }
  std::uint32_t permits() const { return permits_; }

 protected:
  // Throws InvalidArgument when `permits` is 0; `variant` names the variant in that message.
  RedissonPermits(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options, std::uint32_t permits,
                  std::size_t node, const char* variant);

 private:
  // trySetPermits, retried on a lost reply; true once the counter is known to exist.
  Task<bool> set_permits(const std::string& key);

  std::uint32_t permits_;
  bool permits_set_ = false;
};

}  // namespace lockcheck::broken
