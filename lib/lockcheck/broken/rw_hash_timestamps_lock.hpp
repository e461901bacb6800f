#pragma once
// `rw-hash-timestamps` — DELIBERATELY BROKEN, for study. Do not use it to protect anything.
//
// What it does: the lock key is a hash with one field per holder, "read:<token>" or "write:<token>", whose
// value is that holder's deadline in wall-clock milliseconds BY ITS OWN CLOCK (Clock::wall_now() + TTL,
// computed by the client and passed as ARGV). Every acquire script first removes the fields whose deadline
// is before the caller's clock ("stale" holders that crashed without releasing), then:
//   * acquire (write): no field left -> our write field, PEXPIRE ttl;
//   * acquire_shared (read): no write field left -> our read field, key TTL raised to at least ttl;
//   * release (either mode): remove our field, and the key with the last one;
//   * renew (either mode): our field's deadline moves to the caller's clock + TTL, key TTL raised.
// The key TTL only cleans up after holders that all vanished; staleness of a single holder is judged by
// client timestamps. Lua: lib/scripts/rw_hash_timestamps_*.lua.
//
// Where it comes from: the article's cluster read-write lock (DESIGN.md's `rw-hash-timestamps`): a hash with
// read and write entries stamped with the client's time, so that one key can track many readers each with
// its own expiry; F16 in research/harness-anchors.md (reader leases scored by client clocks).
//
// What it guarantees, while every client's wall clock agrees with the others to well within the TTL: readers
// share, a writer excludes readers and other writers, a reader's release removes only its own hold (unlike
// `rw-two-keys`), and a holder that crashed stops blocking others once its deadline passes.
//
// Weak spot (the point of the variant): the deadlines are compared with the CALLER's clock. A client whose
// wall clock runs ahead of a holder's by more than the holder's remaining lease sees that holder as stale,
// deletes its field and enters: a writer together with a reader, or two writers (client-level mutual
// exclusion violated), with no fault but clock skew. NTP steps, a VM resumed with an old clock or a
// misconfigured time zone offset are enough. A client whose clock runs behind keeps dead holders alive
// longer (liveness). `rw-owned` is the cure: only the server's TTL decides.
#include <string>

#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck::broken {

class RwHashTimestampsLock final : public detail::SingleKeyLock {
 public:
  // Throws InvalidArgument when the options are out of range.
  RwHashTimestampsLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : SingleKeyLock(port, clock, entropy, options, node) {}

  Task<AcquireResult> acquire_shared(std::string key, Micros wait) override;

 protected:
  Task<Attempt> attempt(const std::string& key, const std::string& token, bool after_lost_reply) override;
  Task<Attempt> attempt_shared(const std::string& key, const std::string& token, bool after_lost_reply,
                               Millis ttl) override;
  Task<CallResult> release_call(const std::string& key, const std::string& token, const Request& request) override;
  Task<CallResult> renew_call(const std::string& key, const std::string& token) override;

 private:
  // The caller's wall clock in ms, as the scripts' ARGV[3]: what the flaw compares deadlines with.
  std::string wall_now_ms() { return std::to_string(clock_.wall_now().count()); }
};

}  // namespace lockcheck::broken
