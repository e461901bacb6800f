#pragma once
// lockcheck::RedlockMutex: Redlock (a quorum of N independent masters, validity minus clock drift) behind
// Lockable / TimedLockable. Build its Client over the N nodes: Client(std::vector<ConnectionOptions>).
//
//   lockcheck::Client nodes({{.port = 7001}, {.port = 7002}, {.port = 7003}});
//   lockcheck::RedlockMutex mutex(nodes, "orders:42", {.lock = {.ttl = std::chrono::seconds(10)}});
//   std::lock_guard hold(mutex);
//
// Survives the loss of a minority of nodes; not a clock jump on a node, a pause longer than the lease, or a
// node restarting without its data (see redlock.hpp). Per-thread ownership as OwnedMutex. Not reentrant.
#include "lockcheck/mutex_options.hpp"
#include "lockcheck/variants/redlock.hpp"

namespace lockcheck {

class RedlockMutex : public OwnedMutex {
 public:
  // Throws InvalidArgument for an empty key or options out of range.
  RedlockMutex(Client& client, std::string key, MutexOptions options = {})
      : OwnedMutex(client, std::move(key), settings_of(options, "redlock"), build_renewed_if_asked<Redlock>(options)) {}
};

}  // namespace lockcheck
