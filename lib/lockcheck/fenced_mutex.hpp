#pragma once
// lockcheck::FencedMutex: the `fenced` lock (a token lock whose acquire also increments a per-lock counter)
// behind Lockable / TimedLockable. Each lease carries a strictly increasing fencing token: pass it to the
// resource with every write, and have the resource refuse a token lower than one it has seen, so a holder
// whose lease ran out (a pause, a long section) is refused instead of overwriting its successor's work.
//
//   lockcheck::FencedMutex mutex(client, "orders:42", {.lock = {.ttl = std::chrono::seconds(10)}});
//   std::lock_guard hold(mutex);
//   store.write(value, mutex.fencing_token());
//
// Per-thread ownership and lost() / lease() / renew() as OwnedMutex. Not reentrant.
#include <cstdint>

#include "lockcheck/mutex_options.hpp"
#include "lockcheck/variants/fenced_lock.hpp"

namespace lockcheck {

class FencedMutex : public OwnedMutex {
 public:
  // Throws InvalidArgument for an empty key or options out of range.
  FencedMutex(Client& client, std::string key, MutexOptions options = {})
      : OwnedMutex(client, std::move(key), settings_of(options, "fenced"), build_renewed_if_asked<FencedLock>(options)) {}

  // The calling thread's current fencing token; 0 when it holds no lease.
  std::int64_t fencing_token() const {
    const std::optional<Lease> held = lease();
    return held ? held->fencing_token : 0;
  }
};

}  // namespace lockcheck
