#pragma once
// `reentrant-hash` and `reentrant-maxttl` — reentrant locks whose Redis key is a hash {owner -> hold count}.
//
// What they do: the lock key is a hash. Acquire (one Lua script): if the key is absent or already has our
// owner field, HINCRBY owner 1 and set the TTL, reply 1; else 0. Release: if our field exists, HINCRBY -1
// and DEL the key when the count reaches 0, reply 1; not our field: 0 and no effect. Renew: if our field
// exists, reset the TTL. The owner id is drawn once per lock object (128 random bits from the Entropy seam
// plus ":1", Redisson's "<UUID>:<threadId>"), not per acquisition, so a nested acquire by the same object
// (one process, one thread) re-enters instead of waiting for itself. One lock object = one owner: share it
// between threads only if those threads are meant to be the same owner.
//
// Nested acquires may ask for their own lease with acquire_with_ttl(key, wait, ttl) (acquire() asks for the
// options' TTL). The two variants differ only there:
//   * `reentrant-hash` (ReentrantHashLock): every acquire PEXPIREs with the TTL it asks for, as Redisson's
//     lock script does — so a reentry asking for a shorter lease than the outer one SHORTENS the key's TTL
//     (F17, redisson/redisson #1110). With equal TTLs (the usual case) reentry only extends it.
//   * `reentrant-maxttl` (ReentrantMaxTtlLock): an acquire or renew sets the TTL only when it is longer than
//     the key's remaining PTTL: reentry never shortens the lock (the article's 5-4, made sound).
//
// Where it comes from: the articles' reentrant hash lock and Redisson's RedissonLock scripts
// (research/harness-anchors.md F17, S9): count 2 -> 1 -> deleted; another owner's release has no effect.
//
// What they guarantee: what the `token` lock guarantees (one owner at a time by the server, owner-only
// release and renew), plus correct reentry: an inner release keeps the outer hold, the key is deleted only
// by the owner's last release; with reentrant-maxttl a reentry never shortens the TTL.
//
// Weak spots: the same as every TTL lock — a holder paused past its TTL still believes it holds the lock
// (client-level mutual exclusion violated, Kleppmann; only fencing at the resource helps), failover with
// asynchronous replication, server clock jumps. Specific to counting: the hold count is not idempotent
// under retries. An acquire whose reply was lost and is then retried may count one hold too many (the key
// then stays until its TTL runs out after the last release: safe, but the lock is unavailable meanwhile);
// a release whose reply was lost and is retried may count one release too many, freeing an outer hold
// early. `reentrant-hash` with a shorter inner TTL: the outer section may outlive the key (F17).
#include <string>

#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck {

class ReentrantHashLock : public detail::SingleKeyLock {
 public:
  // Throws InvalidArgument when the options are out of range.
  ReentrantHashLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : SingleKeyLock(port, clock, entropy, options, node) {}

  // A nested acquire by this object re-enters; `ttl` is the lease asked for (see the header comment).
  Task<AcquireResult> acquire_with_ttl(std::string key, Micros wait, Millis ttl) override;
  // Releases one hold of `lease`; the key goes when the last hold does. Calling it again for the same lease
  // does nothing (it does not release a second hold): NOT_OWNED.
  Task<ReleaseStatus> release(Lease& lease) override;

  // This object's owner field in the lock hash (drawn on first use, then fixed).
  const std::string& owner_id();

 protected:
  std::string make_token() override { return owner_id(); }
  Task<Attempt> attempt(const std::string& key, const std::string& token, bool after_lost_reply) override;
  Task<Attempt> attempt_with_ttl(const std::string& key, const std::string& token, bool after_lost_reply,
                                 Millis ttl) override;
  Task<CallResult> release_call(const std::string& key, const std::string& token) override;
  Task<CallResult> renew_call(const std::string& key, const std::string& token) override;

  virtual const Script& acquire_script() const;
  virtual const Script& renew_script() const;

 private:
  std::string owner_id_;
};

class ReentrantMaxTtlLock final : public ReentrantHashLock {
 public:
  ReentrantMaxTtlLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : ReentrantHashLock(port, clock, entropy, options, node) {}

 protected:
  const Script& acquire_script() const override;
  const Script& renew_script() const override;
};

}  // namespace lockcheck
