#pragma once
// `set-nx-ex-del` — DELIBERATELY BROKEN, for study. Do not use it to protect anything.
//
// What it does: acquire = SET key <random token> NX PX ttl (atomic, with a TTL: the acquire is correct;
// PX rather than EX so millisecond TTLs work). Release = plain DEL key, with no check of who holds it.
// Renew = compare-and-pexpire (kept sound, so the release is the only bug).
//
// Where it comes from: the articles' third attempt, and the redis.io page "Distributed Locks with Redis"
// ("just DEL is not safe"); redis-py's lock() docstring tells the same timeline (research/harness-anchors.md, F2).
//
// What it guarantees: on a single Redis, exclusion holds for as long as every holder finishes within its TTL.
// If a holder overruns its TTL (GC pause, SIGSTOP, slow work), the key expires, a second client acquires it,
// and the first client's DEL then deletes the second client's lock: a third client can acquire while the
// second still works.
//
// Breaks under: a pause (or a hold) longer than the TTL -> owner_only_release (a foreign DEL), and then
// mutual_exclusion_server once a third owner takes the key. See scenarios/set-nx-ex-del-pause.toml.
// The fix is the compare-and-delete script of the `token` lock.
#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck::broken {

class SetNxExDelLock final : public detail::SingleKeyLock {
 public:
  SetNxExDelLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : SingleKeyLock(port, clock, entropy, options, node) {}

 protected:
  // Plain DEL: deletes the key whoever holds it, and counts that as released.
  Task<CallResult> release_call(const std::string& key, const std::string& token, const Request& request) override;
};

}  // namespace lockcheck::broken
