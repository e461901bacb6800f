#pragma once
// `reentrant-hash` and `reentrant-maxttl` — reentrant locks whose Redis key is a hash {owner -> hold count}.
//
// What they do: the lock key is a hash. Acquire (one Lua script): if the key is absent or already has our
// hold's field, HINCRBY field 1 and set the TTL, reply 1; else 0. Release: if our field exists, HINCRBY -1
// and DEL the key when the count reaches 0, reply 1; not our field: 0 and no effect. Renew: if our field
// exists, reset the TTL. The field names one hold of the lock object, "<owner id>:<generation>" (the owner id
// drawn once per lock object, 128 random bits from the Entropy seam; the generation counts the object's outer
// acquires), where Redisson's names the thread ("<UUID>:<threadId>"). A nested acquire by the same object (one
// process, one thread) re-enters the hold it still has (see below) under that hold's field instead of waiting
// for itself; an outer acquire starts a new generation. So a command of an earlier hold still on its way (a
// release the client gave up on, landing once a later hold began) finds no field of its own and changes
// nothing: under one field per object it counted the later hold down, and the inner release that followed
// deleted the key under the outer section (the explore gate at 1000 runs, seed 401, on redisson-like). And a
// hold of ours that no lease stands for (an acquire landing after its client gave up) is not re-entered by the
// next outer acquire, which waits for it to expire like anyone else's. One lock object = one owner: share it
// between threads only if those threads are meant to be the same owner.
//
// Retries: a hold count is not safe to repeat as it is, and a retry after a lost reply cannot know whether the
// lost command ran. So each acquire and each release carries a request id (the owner id and a counter: one per
// acquire() or release() call, the same on each of its retries), and its script records what it did in a
// request key, request_key(key, id), which expires with the lock key (at least one TTL from then), and two TTLs
// later than that: the client trusts it for one TTL, and a node clock running ahead must not take it from a
// retry within that TTL (found by the explore gate: a release counted down twice). A retried
// acquire whose grant is recorded, our field still there, counts nothing again (it only resets the TTL); a
// retried release returns its recorded result and changes nothing; the cleanup of an abandoned acquire (its
// reply lost, its budget spent) gives back one hold only if that acquire's grant is recorded. The idea of
// Redisson's unlock latch (redisson_unlock_latch:{name}:<request id>, kept for its retry window). A request key
// sits in the lock key's Redis Cluster slot; it costs one small key per acquire and per release until it
// expires. Its lifetime covers the retries as long as they come within one TTL of each other, which they do
// whenever the TTL exceeds a command timeout plus the backoff (a lock whose TTL does not cannot be held anyway).
// A retry that comes later (the process paused, a long stall; renewals extend the lock key, not the record)
// does not run the acquire again: HEXISTS says whether our field is still counted. Counted: the acquire gives
// up, unknown unless its cleanup gives the hold back (the lost attempt's hold may stay until the key's TTL).
// Gone: a nested acquire is refused as a reentry whose hold is gone; an outer one retries as a new request.
//
// A nested acquire re-enters a hold; it never starts a fresh one. While this object has granted a lease on a
// key that is still alive and not released (Lease::hold_mark), an acquire of that key sends "reenter": the
// script then counts one more hold only if our field is still there, and refuses at once otherwise (status
// busy, "reentry refused ..."; the caller's outer hold is gone: it expired or was taken). Redisson's script
// would create the key afresh with a count of 1, so the inner release deletes it and the owner goes on in its
// outer section, believing it holds a lock another client may now take (explore found it under reply loss).
// Release the outer lease (NOT_OWNED) and acquire again to start afresh; a lease dropped without a release
// holds nothing back.
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
// asynchronous replication, server clock jumps. Specific to counting: an acquire whose outcome stays unknown
// after every retry and cleanup (AcquireStatus::unknown) may leave one hold counted; the key then stays until
// its TTL runs out after the last release (safe, but the lock is unavailable meanwhile). `reentrant-hash` with
// a shorter inner TTL: the outer section may outlive the key (F17).
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck {

class ReentrantHashLock : public detail::SingleKeyLock {
 public:
  // Throws InvalidArgument when the options are out of range.
  ReentrantHashLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : SingleKeyLock(port, clock, entropy, options, node) {}

  Task<AcquireResult> acquire(std::string key, Micros wait) override;
  // A nested acquire by this object re-enters; `ttl` is the lease asked for (see the header comment).
  Task<AcquireResult> acquire_with_ttl(std::string key, Micros wait, Millis ttl) override;
  // Releases one hold of `lease`; the key goes when the last hold does. Calling it again for the same lease
  // does nothing (it does not release a second hold): NOT_OWNED.
  Task<ReleaseStatus> release(Lease& lease) override;

  // This object's owner id (drawn on first use, then fixed): its holds' fields are "<owner id>:<generation>",
  // its request ids "<owner id>:r<n>".
  const std::string& owner_id();

  // Where the record of request `request_id` on lock `key` lives: "<key>:req:{<slot part>}:<request id>", in the
  // lock key's slot (same_slot_key.hpp).
  static std::string request_key(const std::string& key, const std::string& request_id);

 protected:
  // A new hold's field: the next generation of this object's.
  std::string make_token() override;
  std::string new_request_id() override;
  // A reentry while this object has an unreleased lease on `key` that lives (under that lease's field); else an
  // outer acquire under a new generation.
  Identity identity_for(const std::string& key) override;
  Task<Attempt> attempt(const std::string& key, const std::string& token, bool after_lost_reply) override;
  Task<Attempt> attempt_with_ttl(const std::string& key, const std::string& token, bool after_lost_reply,
                                 Millis ttl, const Request& request) override;
  Task<CallResult> release_call(const std::string& key, const std::string& token, const Request& request) override;
  // reentrant_hash_release.lua keeps a release's result at least the TTL (longer while the key lives then; a
  // later renewal does not extend it).
  std::optional<Micros> request_record_life() const override { return Micros(options().ttl); }
  // Past the record's life: HEXISTS says whether our field is still counted. Counted: give up (a retry could
  // count the lost attempt's hold again). Gone: a nested acquire is refused as a reentry whose hold is gone; an
  // outer one retries afresh.
  Task<PastRecordCheck> check_past_record(const std::string& key, const std::string& token, const Request& request) override;
  Task<CallResult> renew_call(const std::string& key, const std::string& token) override;
  // The release script (lib/scripts/reentrant_hash_release.lua) for `request`; when it removes the last hold
  // it also PUBLISHes on `announce_on`, unless that is empty (SPUBLISHes, when `shard_channel`).
  Task<CallResult> run_release(const std::string& key, const std::string& token, const Request& request,
                               std::string announce_on, bool shard_channel = false);

  virtual const Script& acquire_script() const;
  virtual const Script& renew_script() const;

 private:
  // Marks `lease` as a hold of this object's (for identity_for()).
  void remember_hold(Lease& lease);

  struct HeldLease {
    std::weak_ptr<HoldMark> mark;
    std::string token;  // the hold's field
  };

  std::string owner_id_;
  std::atomic<std::uint64_t> requests_{0};
  std::atomic<std::uint64_t> generations_{0};
  // The leases this object granted, by key, in grant order; a dead or released one is pruned when met.
  std::mutex holds_mutex_;
  std::map<std::string, std::vector<HeldLease>> holds_;
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
