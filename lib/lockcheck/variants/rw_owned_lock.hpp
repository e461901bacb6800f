#pragma once
// `rw-owned` — a read-write lock whose Redis key is a hash recording who holds it and how.
//
// What it does: the lock key is a hash {"mode": read | write, "r:<token>": 1 per reader hold, "w:<token>": 1
// for the writer}; every acquisition draws its own token (so a reader's hold is its own, F18's cure).
//   * acquire (write): only when the key does not exist (no reader, no writer): mode write, our writer field,
//     PEXPIRE ttl.
//   * acquire_shared (read): when the key is absent or in read mode: our reader field, and PEXPIRE ttl only
//     if that makes the key live longer (a reader never shortens it). A writer's key: busy.
//   * release (either mode, one script): our writer field -> DEL the key; our reader field -> HDEL only that
//     field, and DEL the key with the last reader; otherwise no effect (NOT_OWNED). Either way the token is
//     marked given back beside the key (given_back_key), and an acquire attempt of a token given back counts
//     nothing: an attempt still on its way after the release would make a hold no lease stands for.
//   * renew (either mode): the writer resets the TTL; a reader extends it, never shortens it.
//
// Why it is sound (server level): the key's TTL is never below any reader's lease (each reader acquire or
// renew sets it to at least its TTL from that moment, nothing else lowers it while readers are in), and a
// writer needs the key to be absent; a reader's release removes only its own field. So a writer can take the
// lock only after every reader released or every reader's lease ran out, and nobody enters while a writer's
// key lives. The simpler design (no per-reader key with its own PX) costs liveness only: a reader that
// stalls without releasing keeps the key until it expires, and readers that keep renewing keep writers out
// (writer starvation under a steady stream of readers, as with any reader-preferring lock).
//
// Where it comes from: DESIGN.md's `rw-owned` (beyond the seeds), the cure for F16 (reader leases scored by
// client clocks: here only the server's TTL counts) and F18 (a reader's unlock deleting the whole key).
//
// Weak spots: every TTL lock's (a holder paused past its TTL still believes it holds the lock: client
// level; failover with asynchronous replication; server clock jumps). The writer is not reentrant: a
// holder that acquires again (in either mode) waits for itself.
#include <string>

#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck {

class RwOwnedLock final : public detail::SingleKeyLock {
 public:
  // Throws InvalidArgument when the options are out of range.
  RwOwnedLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : SingleKeyLock(port, clock, entropy, options, node) {}

  Task<AcquireResult> acquire_shared(std::string key, Micros wait) override;

  // Where a release (or an acquire's cleanup) marks `token` given back, so that an attempt of its acquire
  // landing late counts nothing: "<key>:done:{<slot part>}:<token>", in the lock key's slot (same_slot_key.hpp).
  static std::string given_back_key(const std::string& key, const std::string& token);

 protected:
  Task<Attempt> attempt(const std::string& key, const std::string& token, bool after_lost_reply) override;
  Task<Attempt> attempt_shared(const std::string& key, const std::string& token, bool after_lost_reply,
                               Millis ttl) override;
  Task<CallResult> release_call(const std::string& key, const std::string& token, const Request& request) override;
  Task<CallResult> renew_call(const std::string& key, const std::string& token) override;
};

}  // namespace lockcheck
