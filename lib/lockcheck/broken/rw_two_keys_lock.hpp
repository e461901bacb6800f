#pragma once
// `rw-two-keys` — DELIBERATELY BROKEN, for study. Do not use it to protect anything.
//
// What it does: two keys per lock: "<key>:read" counts readers (INCR + PEXPIRE ttl, only when the write key
// is absent) and "<key>:write" holds the writer's token (SET NX PX, only when the read key is absent); both
// checks run in one script. The writer's release and renew are the token lock's compare-and-delete and
// compare-and-pexpire on the write key. A reader's release DELs the read key, and a reader's renew PEXPIREs it.
//
// Where it comes from: the article's single-instance read-write lock (DESIGN.md's `rw-two-keys`), the shape of
// redisson/redisson #891 (F18: a read unlock that deletes the whole key).
//
// What it guarantees: a writer never enters while the read key exists, and no reader enters while the write
// key exists; writers exclude each other as the token lock does.
//
// Weak spot (the point of the variant): the read key is shared and not owned. One reader's release DELs it,
// which frees ALL readers: a writer then enters while the other readers are still reading (client-level
// mutual exclusion violated, writer with reader). Likewise the read key's TTL belongs to whichever reader
// touched it last, and one reader's expiry is everyone's.
#include <string>

#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck::broken {

class RwTwoKeysLock final : public detail::SingleKeyLock {
 public:
  // Throws InvalidArgument when the options are out of range.
  RwTwoKeysLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : SingleKeyLock(port, clock, entropy, options, node) {}

  // The two keys it keeps for `key`: the readers' count and the writer's token.
  static std::string read_key(const std::string& key) { return key + ":read"; }
  static std::string write_key(const std::string& key) { return key + ":write"; }

  Task<AcquireResult> acquire_shared(std::string key, Micros wait) override;
  // A shared lease's release DELs the read key (the flaw); an exclusive one's is compare-and-delete.
  Task<ReleaseStatus> release(Lease& lease) override;
  Task<ReleaseStatus> release_shared(Lease& lease) override;
  Task<RenewStatus> renew(Lease& lease) override;

 protected:
  Task<Attempt> attempt(const std::string& key, const std::string& token, bool after_lost_reply) override;
  Task<Attempt> attempt_shared(const std::string& key, const std::string& token, bool after_lost_reply,
                               Millis ttl) override;
  Task<CallResult> release_call(const std::string& key, const std::string& token, const Request& request) override;
  Task<CallResult> renew_call(const std::string& key, const std::string& token) override;
};

}  // namespace lockcheck::broken
