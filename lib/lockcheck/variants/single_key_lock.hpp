#pragma once
// The acquire / release / renew loop shared by the single-instance catalogue variants (exists-then-set,
// setnx-then-expire, set-nx-ex-del, thread-id, fenced). A variant supplies only what makes it that variant:
// its token, one acquire attempt, and (when it is not compare-and-delete) its release. Everything else is the
// same careful loop as the `token` lock (lib/lockcheck/variants/token_lock.hpp), so that a broken variant's
// weak spot is exactly the step its header names and nothing else:
//
//   * waiting for a busy lock backs off exponentially with jitter, within the caller's wait budget;
//   * an attempt whose reply was lost is an unknown outcome: the next attempt is told so (it must recognise
//     our own token), and an acquire that gives up afterwards cleans the key up with release_token() or
//     reports AcquireStatus::unknown — never a silent "busy";
//   * the validity is measured on the monotonic clock from before the attempt's first request, minus the
//     drift margin, and a grant that arrives after its validity is spent is given back;
//   * release and renew are retried on a lost reply (compare-and-delete / compare-and-pexpire scripts);
//   * a variant whose commands are not safe to repeat as they are (a reentrant hold count) draws a request id
//     per acquire and per release (new_request_id()), the same on each of its retries, under which its scripts
//     record their first result.
//
// Not a user-facing lock on its own: construct a concrete variant (or go through make_lock()).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lockcheck/clock.hpp"
#include "lockcheck/entropy.hpp"
#include "lockcheck/lease.hpp"
#include "lockcheck/lock_algorithm.hpp"
#include "lockcheck/lock_options.hpp"
#include "lockcheck/port.hpp"
#include "lockcheck/script.hpp"

namespace lockcheck::detail {

class SingleKeyLock : public LockAlgorithm {
 public:
  Task<AcquireResult> acquire(std::string key, Micros wait) override;
  Task<ReleaseStatus> release(Lease& lease) override;
  Task<RenewStatus> renew(Lease& lease) override;

  const LockOptions& options() const { return options_; }

 protected:
  // Throws InvalidArgument when the options are out of range or `node` does not exist.
  SingleKeyLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node);

  // What one attempt learned. `call` is the last call made: when it did not reply the loop treats the
  // attempt as an unknown outcome (not_sent: certainly not run; unknown: it may have run).
  struct Attempt {
    CallResult call;
    bool granted = false;
    std::int64_t fencing_token = 0;
    std::string refused_because;  // why a replied attempt was not granted; empty: "held by another owner"
    // A refusal no later attempt can change (a reentry whose hold is gone): the acquire stops at once.
    bool final_refusal = false;
  };
  // What an acquire does past its request record's life (check_past_record() below says which).
  enum class PastRecord { give_up, retry_afresh, taken };
  struct PastRecordCheck {
    PastRecord next = PastRecord::give_up;
    Attempt attempt;  // next == taken
  };

  // One acquire's or release's identity, the same on each of its retries. A variant whose commands are not
  // safe to repeat as they are (a reentrant hold count) records each request's first result under `id`, so a
  // retry after a lost reply returns that result instead of counting again. `undoes`: the acquire request whose
  // grant a cleanup release gives back, only if that acquire took effect (empty for a lease's release). Both
  // are empty for every other variant, whose commands ignore them.
  // `reenter_only`: a nested acquire, made while this lock object still holds an unreleased lease on the key
  // (identity_for()): it may only count one more hold of this owner's, never create the key.
  struct Request {
    std::string id;
    std::string undoes;
    bool reenter_only = false;
  };

  // The owner token of one acquire. Default: 128 random bits from the Entropy seam.
  virtual std::string make_token();
  // A new request id (see Request). Default: empty, for variants whose commands are safe to repeat.
  virtual std::string new_request_id();
  // Who an acquire of `key` now acquires as: its token, and whether it is a reentry (Request::reenter_only),
  // which then goes under the token of the hold it re-enters. Default: a new token (make_token()), no reentry.
  struct Identity {
    std::string token;
    bool reenter_only = false;
  };
  virtual Identity identity_for(const std::string& key) {
    (void)key;
    return Identity{make_token(), false};
  }
  // One acquire attempt. `after_lost_reply`: an earlier attempt's reply was lost, so the key may already
  // hold `token`; the attempt must then count that as granted. Error replies are returned, not thrown.
  // Default: the token lock's SET key token NX PX ttl, or its reclaim script after a lost reply.
  virtual Task<Attempt> attempt(const std::string& key, const std::string& token, bool after_lost_reply);
  // One attempt asking for a lease of `ttl` (acquire_loop() with a TTL other than the options'), as part of
  // the acquire `request`. Default: attempt(), which uses the options' TTL; the variants that override
  // acquire_with_ttl() override this.
  virtual Task<Attempt> attempt_with_ttl(const std::string& key, const std::string& token, bool after_lost_reply,
                                         Millis ttl, const Request& request);
  // The acquire loop for a lease of `ttl`: acquire() is acquire_loop(key, wait, options().ttl). A variant
  // that honours acquire_with_ttl() calls this with the caller's ttl (validity is measured against it).
  // `shared`: each attempt is attempt_shared() and the lease comes back with `shared` set (read-write
  // variants' acquire_shared()).
  Task<AcquireResult> acquire_loop(std::string key, Micros wait, Millis ttl, bool shared = false);
  // What one acquire_loop() carries from one attempt to the next.
  struct AcquireRun {
    std::string key;
    std::string token;
    Request request;
    Millis ttl{};
    bool shared = false;
    MonoTime give_up_at{};
    AcquireResult result;
    bool maybe_ours = false;  // an attempt's reply was lost: the key may hold our token
    MonoTime request_sent_at{};  // the first send of the current request id (its record is no older)
    bool gave_up_past_record = false;  // past_record() gave up: our field counted, the record maybe gone
    bool any_reply = false;
    std::uint32_t busy_attempts = 0;
    std::uint32_t unknown_budget = 0;  // retries left past the budget, to settle a lost reply
    std::optional<Lease> late_grant;   // a grant whose validity ran out before its reply came: to give back
  };
  // take_reply() and pause_before_retry() decide; acquire_loop() does their awaits (the rare release, the pause).
  // Plain functions, not coroutines: an attempt allocates no coroutine frame of theirs (+4.7% instructions per
  // simulated event on sim_bench's TenClientsOneNode when they were coroutines).
  // An attempt that got a reply: an error (acquire_loop cleans up what a lost attempt may have set, then throws),
  // a grant still valid (run.result's lease), a grant that came too late (run.late_grant), a refusal counted.
  enum class AfterReply { granted, late_grant, error, retry, stop };
  // Before an attempt: within the request record's life (or none lost), retry_afresh, the attempt as it is;
  // past it, what check_past_record() says (give_up; taken, with `tried` filled; retry_afresh, a new request).
  Task<PastRecord> past_record(AcquireRun& run, Attempt& tried);
  AfterReply take_reply(AcquireRun& run, const Attempt& tried, MonoTime sent_at);
  // Gives back the grant that came too late (run.late_grant). False when the give-back got no answer: run.result
  // is then the acquire's unknown outcome, and no attempt may follow.
  Task<bool> gave_back_late_grant(AcquireRun& run);
  // The wait before the next attempt: backoff within the budget, for the holder's release after a refusal (pub/sub
  // variants); past the budget, only to settle a lost reply; or giving up.
  struct RetryPause {
    enum class Kind : std::uint8_t { give_up, sleep, wait_for_release } kind = Kind::give_up;
    Micros pause{};
    Micros left{};  // wait_for_release: the budget left
  };
  RetryPause pause_before_retry(AcquireRun& run, bool replied);
  // The lease of a grant to the attempt sent at `sent_at`, valid for `valid_for` from then (TTL − drift margin).
  Lease granted_lease(const std::string& key, const std::string& token, MonoTime sent_at, Micros valid_for,
                      std::int64_t fencing_token, bool shared);
  // An acquire that ran out of attempts or budget: the key a lost attempt may have set is cleaned up (under
  // `request_id`), then busy, unreachable or, when that cleanup is unanswered, unknown. `gave_up_past_record`:
  // it gave up past its request record's life with our field counted, so a cleanup that gives nothing back
  // leaves the outcome unknown too (the lost attempt's hold may be among those counted, until the key's TTL).
  Task<AcquireResult> end_failed_acquire(AcquireResult result, const std::string& key, const std::string& token,
                                         std::string request_id, bool maybe_ours, bool any_reply,
                                         bool gave_up_past_record);
  // One shared (read) attempt, for read-write variants. Default: throws InvalidArgument (no shared mode).
  virtual Task<Attempt> attempt_shared(const std::string& key, const std::string& token, bool after_lost_reply,
                                       Millis ttl);
  // One release command of `request`: deletes the key if (for a sound variant: only if) it holds `token`,
  // replying 1 when it deleted. Default: the compare-and-delete script, safe to repeat, so it ignores `request`.
  virtual Task<CallResult> release_call(const std::string& key, const std::string& token, const Request& request);
  // One renew command: resets the TTL if the key holds `token`, replying 1 when it did. Default: the
  // compare-and-pexpire script.
  virtual Task<CallResult> renew_call(const std::string& key, const std::string& token);
  // How long the server keeps, at least, a request's recorded result (counted from when it runs), for variants
  // whose release is made safe to repeat by such a record (a reentrant hold counts down once per release): a
  // retry later than that could take away a second hold, so release_token() stops retrying then and the
  // release is unknown. Default: none (compare-and-delete is safe to repeat at any time).
  virtual std::optional<Micros> request_record_life() const { return std::nullopt; }
  // An acquire's retry after a lost reply comes later than request_record_life() (a pause, a long stall): the
  // record that makes the retry count nothing twice may be gone. What the variant can still learn without
  // repeating the lost attempt: give up (the cleanup settles what that attempt did, or the outcome is unknown),
  // retry as a new request (nothing of ours is left for a retry to count again), or an attempt to take as this
  // one (a refusal; or a check that got no answer, which the loop retries as it would a lost attempt).
  // Default: give up.
  virtual Task<PastRecordCheck> check_past_record(const std::string& key, const std::string& token,
                                                  const Request& request);
  // How long an acquire's record lives at least (its TTL caps it). Default: request_record_life(); none for a
  // variant whose acquire records nothing (Redisson's own script: a retry there counts again, as it does).
  virtual std::optional<Micros> acquire_record_life() const { return request_record_life(); }
  // Waits before the next attempt of a busy lock (only after a refusal: after a lost reply the loop sleeps
  // `pause`). `pause` is the backoff delay (already within the budget), `left` what remains of the wait budget.
  // Default: sleep `pause`. Pub/sub variants wait for a release.
  virtual Task<void> wait_to_retry(const std::string& key, Micros pause, Micros left);
  // Called once when an acquire gives up without a grant (its budget or attempts spent), before the cleanup of
  // end_failed_acquire(): a variant that keeps waiters in Redis (a fair lock's queue) takes `token` out of it.
  // Default: nothing.
  virtual Task<void> gave_up(const std::string& key, const std::string& token);
  // release_call() retried on a lost reply, as one request. Also cleans up after an unknown acquire outcome:
  // then `undoes` is that acquire's request id.
  Task<ReleaseStatus> release_token(const std::string& key, const std::string& token, std::string undoes = {});

  // Helpers for attempts.
  Task<CallResult> call(Command command);
  // A command from its words; a braced list inside a co_await expression trips GCC's coroutine lowering.
  template <typename... Words>
  static Command command(const Words&... words) {
    return Command{std::string(words)...};
  }
  Task<CallResult> run_script(const Script& script, std::vector<std::string> keys, std::vector<std::string> args);
  // One attempt that runs `script` and counts a reply of 1 as granted (anything else: not granted).
  Task<Attempt> script_attempt(const Script& script, std::vector<std::string> keys, std::vector<std::string> args);
  std::string ttl_ms() const { return std::to_string(options_.ttl.count()); }
  [[noreturn]] static void throw_error_reply(const std::string& what, const std::string& key, const Reply& reply);

  Port& port_;
  Clock& clock_;
  Entropy& entropy_;
  LockOptions options_;
  std::size_t node_;
};

}  // namespace lockcheck::detail
