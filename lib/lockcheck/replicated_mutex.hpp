#pragma once
// lockcheck::ReplicatedMutex: the `token-wait` lock (the token lock, plus WAIT for `replicas` replicas to
// acknowledge the SET before an acquire counts) behind Lockable / TimedLockable, for a master with replicas
// and automatic failover, where `token`'s grant can die with the master before any replica saw it.
//
//   lockcheck::ReplicatedMutex mutex(client, "orders:42", {.lock = {.ttl = std::chrono::seconds(10)}},
//                                    {.replicas = 1});
//   std::lock_guard hold(mutex);
//
// WAIT narrows the failover window, it does not close it (see token_wait_lock.hpp). Per-thread ownership and
// lost() / lease() / renew() as OwnedMutex. Not reentrant.
#include "lockcheck/mutex_options.hpp"
#include "lockcheck/variants/token_wait_lock.hpp"

namespace lockcheck {

class ReplicatedMutex : public OwnedMutex {
 public:
  // Throws InvalidArgument for an empty key or options out of range.
  ReplicatedMutex(Client& client, std::string key, MutexOptions options = {}, TokenWaitOptions wait = {})
      : OwnedMutex(client, std::move(key), settings_of(options, "token-wait"),
                   build_renewed_if_asked<TokenWaitLock>(options, wait)) {}
};

}  // namespace lockcheck
