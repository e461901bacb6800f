#pragma once
// `exists-then-set` — DELIBERATELY BROKEN, for study. Do not use it to protect anything.
//
// What it does: acquire = EXISTS key; if the key is absent, SET key <random token> PX ttl (no NX).
// Release = compare-and-delete (the token lock's script), renew = compare-and-pexpire.
//
// Where it comes from: the first attempt in the Chinese articles on Redis locks (shared/DESIGN.md, the
// variant catalogue): "check whether the lock is free, then take it".
//
// What it guarantees: nothing about exclusion. The check and the set are two round trips, and Redis runs
// other clients' commands between them: two clients can both see "absent" and both SET; the second SET
// overwrites the first owner's token while the first still believes it holds the lock. No fault is needed,
// only contention (a slower network widens the window). The key always has a TTL and a release never deletes
// a foreign token (only the acquire is broken), so the overwritten owner's late release returns 0.
//
// Breaks under: plain contention -> mutual_exclusion_server (a key overwritten by a second owner while the
// first is entitled) and mutual_exclusion_client. See scenarios/exists-then-set-race.toml.
// The fix is one atomic command: SET key token NX PX ttl (the `token` lock).
#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck::broken {

class ExistsThenSetLock final : public detail::SingleKeyLock {
 public:
  ExistsThenSetLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : SingleKeyLock(port, clock, entropy, options, node) {}

 protected:
  Task<Attempt> attempt(const std::string& key, const std::string& token, bool after_lost_reply) override;
};

}  // namespace lockcheck::broken
