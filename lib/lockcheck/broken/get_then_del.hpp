#pragma once
// `get-then-del` — DELIBERATELY BROKEN, for study. Do not use it to protect anything.
//
// What it does: acquire = SET key <random token> NX PX ttl (sound). Release = GET key, and if it holds our
// token, DEL key: the compare and the delete are two commands. Renew = compare-and-pexpire (kept sound).
//
// Where it comes from: the "check the value before deleting" fix of set-nx-ex-del written without a script,
// common in tutorials and answers (theory row F3 in research/).
//
// What it guarantees: exclusion while every holder finishes well within its TTL and its GET and DEL follow
// each other quickly. Between the GET and the DEL, Redis runs other clients' commands: if the key expires in
// that window (a slow link, a GC pause after the GET) and another client acquires it, the DEL deletes that
// client's lock, and a third client can acquire while the second still works.
//
// Breaks under: a slow link or a pause between GET and DEL around the TTL's end -> owner_only_release, then
// mutual_exclusion_server. See scenarios/get-then-del-slow-link-breaks.toml. The fixes: the token lock's
// compare-and-delete script, or the WATCH/MULTI/EXEC transaction of `watch-cas`.
#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck::broken {

class GetThenDelLock final : public detail::SingleKeyLock {
 public:
  GetThenDelLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : SingleKeyLock(port, clock, entropy, options, node) {}

 protected:
  Task<CallResult> release_call(const std::string& key, const std::string& token, const Request& request) override;
};

}  // namespace lockcheck::broken
