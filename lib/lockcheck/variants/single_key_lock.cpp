#include "lockcheck/variants/single_key_lock.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "lockcheck/assert.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/backoff.hpp"
#include "lockcheck/token_scripts.hpp"

namespace lockcheck::detail {

SingleKeyLock::SingleKeyLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node)
    : port_(port), clock_(clock), entropy_(entropy), options_(options), node_(node) {
  validate_lock_options(options_);
  if (node_ >= port_.node_count()) {
    throw InvalidArgument(fmt::format("node {} does not exist; the port has {}", node_, port_.node_count()));
  }
}

void SingleKeyLock::throw_error_reply(const std::string& what, const std::string& key, const Reply& reply) {
  throw RedisError(fmt::format("{} of lock '{}' failed: {}", what, key, reply.text));
}

std::string SingleKeyLock::make_token() { return entropy_.token_hex(); }

std::string SingleKeyLock::new_request_id() { return {}; }

// Plain functions, not coroutines, where a call only forwards another's task: no frame of their own to allocate,
// and the result is not moved through one more promise (explore's runs per CPU-second).
Task<CallResult> SingleKeyLock::call(Command command) { return port_.call(node_, std::move(command)); }

Task<SingleKeyLock::Attempt> SingleKeyLock::script_attempt(const Script& script, std::vector<std::string> keys,
                                                         std::vector<std::string> args) {
  Attempt result;
  result.call = co_await run_script(script, std::move(keys), std::move(args));
  result.granted = result.call.replied() && result.call.reply.is_integer(1);
  co_return result;
}

Task<CallResult> SingleKeyLock::run_script(const Script& script, std::vector<std::string> keys,
                                           std::vector<std::string> args) {
  return eval(port_, node_, script, std::move(keys), std::move(args));
}

Task<SingleKeyLock::Attempt> SingleKeyLock::attempt(const std::string& key, const std::string& token,
                                                   bool after_lost_reply) {
  LOCKCHECK_ASSERT(!token.empty());  // every acquire sends a token of its own (make_token())
  Attempt result;
  if (after_lost_reply) {
    // An earlier SET may have landed: the reclaim script counts "already holds my token" as granted.
    std::vector<std::string> keys{key};
    std::vector<std::string> args{token, ttl_ms()};
    co_return co_await script_attempt(token_reclaim_script(), std::move(keys), std::move(args));
  }
  Command set{"SET", key, token, "NX", "PX", ttl_ms()};
  result.call = co_await call(std::move(set));
  result.granted = result.call.replied() && result.call.reply == Reply::ok();
  co_return result;
}

Task<SingleKeyLock::Attempt> SingleKeyLock::attempt_with_ttl(const std::string& key, const std::string& token,
                                                            bool after_lost_reply, Millis ttl,
                                                            const Request& request) {
  (void)ttl;
  (void)request;
  return attempt(key, token, after_lost_reply);
}

Task<void> SingleKeyLock::wait_to_retry(const std::string& key, Micros pause, Micros left) {
  (void)key;
  (void)left;
  co_await clock_.sleep(pause);
}

Task<AcquireResult> SingleKeyLock::acquire(std::string key, Micros wait) {
  return acquire_loop(std::move(key), wait, options_.ttl);
}

Task<SingleKeyLock::Attempt> SingleKeyLock::attempt_shared(const std::string& key, const std::string& token,
                                                           bool after_lost_reply, Millis ttl) {
  (void)key;
  (void)token;
  (void)after_lost_reply;
  (void)ttl;
  throw InvalidArgument("this variant has no shared mode");
  co_return Attempt{};
}

Task<AcquireResult> SingleKeyLock::acquire_loop(std::string key, Micros wait, Millis ttl, bool shared) {
  validate_lock_key(key);
  if (ttl <= Millis::zero()) throw InvalidArgument(fmt::format("lock '{}': the TTL must be positive", key));
  AcquireRun run;
  run.ttl = ttl;
  run.shared = shared;
  run.give_up_at = clock_.monotonic_now() + std::max(wait, Micros::zero());
  Identity identity = identity_for(key);
  run.token = std::move(identity.token);
  LOCKCHECK_ASSERT(!run.token.empty());  // every variant's make_token() draws one: "" would match a key set to ""
  run.request = Request{new_request_id(), {}, identity.reenter_only};
  run.key = std::move(key);
  run.unknown_budget = options_.retry.unknown_outcome_attempts;
  run.request_sent_at = clock_.monotonic_now();

  while (run.result.attempts < options_.retry.max_attempts) {
    const MonoTime sent_at = clock_.monotonic_now();
    Attempt tried;
    const PastRecord past = co_await past_record(run, tried);
    if (past == PastRecord::give_up) break;
    ++run.result.attempts;
    if (past == PastRecord::taken) {
      // The check stands for this attempt: a refusal, or no answer (checked again after the pause).
    } else if (run.shared) {
      tried = co_await attempt_shared(run.key, run.token, run.maybe_ours, run.ttl);
    } else {
      tried = co_await attempt_with_ttl(run.key, run.token, run.maybe_ours, run.ttl, run.request);
    }
    if (tried.call.replied()) {
      const AfterReply next = take_reply(run, tried, sent_at);
      if (next == AfterReply::error) {
        if (run.maybe_ours) co_await release_token(run.key, run.token, run.request.id);
        throw_error_reply("acquire", run.key, tried.call.reply);
      }
      if (next == AfterReply::granted) {
        // A grant hands its lease out.
        LOCKCHECK_ASSERT(run.result.status == AcquireStatus::acquired && run.result.lease);
        co_return std::move(run.result);
      }
      if (next == AfterReply::late_grant && !co_await gave_back_late_grant(run)) co_return std::move(run.result);
      if (next == AfterReply::stop) break;
    } else {
      if (tried.call.status == CallStatus::unknown) run.maybe_ours = true;
      run.result.detail = tried.call.detail;
    }
    const RetryPause pause = pause_before_retry(run, tried.call.replied());
    if (pause.kind == RetryPause::Kind::give_up) break;
    if (pause.kind == RetryPause::Kind::wait_for_release) {
      co_await wait_to_retry(run.key, pause.pause, pause.left);
    } else {
      co_await clock_.sleep(pause.pause);
    }
  }

  co_await gave_up(run.key, run.token);
  co_return co_await end_failed_acquire(std::move(run.result), run.key, run.token, run.request.id, run.maybe_ours,
                                        run.any_reply, run.gave_up_past_record);
}

Task<bool> SingleKeyLock::gave_back_late_grant(AcquireRun& run) {
  LOCKCHECK_ASSERT(run.late_grant.has_value());  // take_reply() kept the grant that came too late
  // Given back as the request it was granted to (a cleanup's release), not as a lease: a reentrant variant
  // then leaves that request's record "given back", so a copy of its attempt still on its way, landing once the
  // key is gone, counts nothing (with the record still "granted" it made the key afresh, a hold no lease stands
  // for, which the owner's next acquire re-entered).
  const ReleaseStatus given_back = co_await release_token(run.key, run.token, run.request.id);
  run.late_grant.reset();
  if (given_back == ReleaseStatus::unknown) {
    // The hold may still be counted on the node, and a reentrant one would be re-entered by our next attempt
    // (the explore gate at 1000 runs, seed 139: reentrant-hash's next release then left a hold counted): no
    // further attempt, and not "not acquired" either.
    run.result.status = AcquireStatus::unknown;
    run.result.detail = "the grant arrived after its validity had run out, and giving it back got no answer: a hold "
                        "of ours may stay counted until the key's TTL";
    co_await gave_up(run.key, run.token);
    co_return false;
  }
  // That hold is given back: later attempts are a new request, which must count a hold of their own, under a
  // token of their own (rw-owned refuses every attempt of a token given back); a reentry goes on under the token
  // of the hold it re-enters.
  run.token = identity_for(run.key).token;
  LOCKCHECK_ASSERT(!run.token.empty());
  run.request.id = new_request_id();
  run.request_sent_at = clock_.monotonic_now();
  co_return true;
}

SingleKeyLock::AfterReply SingleKeyLock::take_reply(AcquireRun& run, const Attempt& tried, MonoTime sent_at) {
  run.any_reply = true;
  if (tried.call.reply.is_error()) return AfterReply::error;  // maybe_ours kept: the clean-up reads it
  run.maybe_ours = false;
  if (!tried.granted) {
    ++run.busy_attempts;
    run.result.detail = tried.refused_because.empty() ? "held by another owner" : tried.refused_because;
    if (tried.refused_because.empty()) run.result.refused_at = clock_.monotonic_now();
    return tried.final_refusal ? AfterReply::stop : AfterReply::retry;
  }
  const Micros ttl_us = std::chrono::duration_cast<Micros>(run.ttl);
  Lease lease = granted_lease(run.key, run.token, sent_at, ttl_us - drift_margin(options_), tried.fencing_token,
                              run.shared);
  // A grant's validity starts at the send and never exceeds the TTL it asked for.
  LOCKCHECK_ASSERT(lease.valid_until <= sent_at + ttl_us);
  if (clock_.monotonic_now() < lease.valid_until) {
    run.result.status = AcquireStatus::acquired;
    run.result.lease = std::move(lease);
    return AfterReply::granted;
  }
  run.late_grant = std::move(lease);
  run.result.detail = "the grant arrived after its validity had run out";
  return AfterReply::late_grant;
}

SingleKeyLock::RetryPause SingleKeyLock::pause_before_retry(AcquireRun& run, bool replied) {
  // Another attempt comes only while the acquire holds nothing: a grant is handed out or back, never dropped.
  LOCKCHECK_ASSERT(!run.result.lease && !run.late_grant);
  const MonoTime now = clock_.monotonic_now();
  if (now >= run.give_up_at) {
    if (replied || run.unknown_budget == 0) return {};
    --run.unknown_budget;
    return {RetryPause::Kind::sleep, options_.retry.delay_min};
  }
  const Micros pause = std::min(backoff_delay(options_.retry, entropy_, std::max<std::uint32_t>(run.busy_attempts, 1)),
                                run.give_up_at - now);
  // Only a refusal waits for the holder's release (pub/sub variants). After a lost reply the retry comes after
  // the pause: it must run while the request's record of the lost attempt lives (at least one TTL), or it
  // counts that attempt's hold a second time (redisson-like's waiters waited a whole TTL for a message here).
  if (replied) return {RetryPause::Kind::wait_for_release, pause, run.give_up_at - now};
  return {RetryPause::Kind::sleep, pause};
}

Task<SingleKeyLock::PastRecord> SingleKeyLock::past_record(AcquireRun& run, Attempt& tried) {
  // An acquire's record lives the TTL it asked for (a nested acquire may ask less than the options' TTL).
  std::optional<Micros> record_life = acquire_record_life();
  if (record_life) record_life = std::min(*record_life, std::chrono::duration_cast<Micros>(run.ttl));
  // A retry after a lost reply counts nothing twice only while the request's record of that attempt lives.
  if (!run.maybe_ours || !record_life || clock_.monotonic_now() - run.request_sent_at < *record_life - drift_margin(options_)) {
    co_return PastRecord::retry_afresh;  // within the record's life: the retry as it is
  }
  PastRecordCheck check = co_await check_past_record(run.key, run.token, run.request);
  // Only a check that got an answer or none may stand for an attempt; give_up and retry_afresh carry nothing.
  LOCKCHECK_ASSERT(check.next == PastRecord::taken || !check.attempt.call.replied());
  if (check.next == PastRecord::give_up) {
    run.gave_up_past_record = true;
    run.result.detail += "; no retry past the request record's life";
  } else if (check.next == PastRecord::taken) {
    tried = std::move(check.attempt);
  } else {
    // Nothing of ours is left: the retry is a new request. The old one is given back first (its record left
    // "0"): a copy of its lost attempt still on its way, landing after a later attempt's grant, would otherwise
    // count a second hold (the explore gate at 1000 runs, seed 881, on redisson-like).
    if (co_await release_token(run.key, run.token, run.request.id) == ReleaseStatus::unknown) {
      // No answer: the old request stays, and the check comes again after the pause, as for a lost attempt.
      tried.call = CallResult::failed(CallStatus::unknown, "giving back a lost attempt's request got no answer");
      co_return PastRecord::taken;
    }
    run.maybe_ours = false;
    run.request.id = new_request_id();
    run.request_sent_at = clock_.monotonic_now();
  }
  co_return check.next;
}

Task<SingleKeyLock::PastRecordCheck> SingleKeyLock::check_past_record(const std::string& key, const std::string& token,
                                                                       const Request& request) {
  (void)key;
  (void)token;
  (void)request;
  co_return PastRecordCheck{};
}

Task<void> SingleKeyLock::gave_up(const std::string& key, const std::string& token) {
  (void)key;
  (void)token;
  co_return;
}

Lease SingleKeyLock::granted_lease(const std::string& key, const std::string& token, MonoTime sent_at, Micros valid_for,
                                   std::int64_t fencing_token, bool shared) {
  LOCKCHECK_ASSERT(!key.empty() && !token.empty());  // a lease names the key it holds and the token it holds it by
  Lease lease;
  lease.key = key;
  lease.token = token;
  lease.sent_at = sent_at;
  lease.valid_until = sent_at + valid_for;
  lease.fencing_token = fencing_token;
  lease.clock = &clock_;
  lease.shared = shared;
  return lease;
}

Task<AcquireResult> SingleKeyLock::end_failed_acquire(AcquireResult result, const std::string& key,
                                                      const std::string& token, std::string request_id,
                                                      bool maybe_ours, bool any_reply, bool gave_up_past_record) {
  if (maybe_ours) {
    const ReleaseStatus cleanup = co_await release_token(key, token, std::move(request_id));
    if (cleanup == ReleaseStatus::unknown) {
      result.status = AcquireStatus::unknown;
      result.detail = fmt::format("acquire outcome unknown and cleanup unreachable ({})", result.detail);
      co_return result;
    }
    if (gave_up_past_record && cleanup != ReleaseStatus::released) {
      result.status = AcquireStatus::unknown;
      result.detail = fmt::format("acquire outcome unknown: its record expired before a retry, and a hold it may "
                                  "have counted stays until the key's TTL ({})", result.detail);
      co_return result;
    }
    result.detail += "; the key our lost attempt may have set was cleaned up";
  }
  result.status = any_reply ? AcquireStatus::busy : AcquireStatus::unreachable;
  LOCKCHECK_ASSERT(!result.lease);  // a failed acquire hands out nothing to hold
  co_return result;
}

Task<CallResult> SingleKeyLock::release_call(const std::string& key, const std::string& token,
                                             const Request& request) {
  (void)request;
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token};
  return run_script(token_release_script(), std::move(keys), std::move(args));
}

Task<CallResult> SingleKeyLock::renew_call(const std::string& key, const std::string& token) {
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token, ttl_ms()};
  return run_script(token_renew_script(), std::move(keys), std::move(args));
}

Task<ReleaseStatus> SingleKeyLock::release_token(const std::string& key, const std::string& token,
                                                 std::string undoes) {
  // Only a token an acquire drew is given back: an empty one would compare equal to a key set to "".
  LOCKCHECK_ASSERT(!token.empty());
  const Request request{new_request_id(), std::move(undoes)};
  const MonoTime first_sent = clock_.monotonic_now();
  // The record a retry relies on was written no earlier than the first send; the drift margin covers a clock
  // that runs a little slow, as validity does.
  const std::optional<Micros> record_life = request_record_life();
  bool earlier_reply_lost = false;
  for (std::uint32_t i = 0; i < options_.retry.idempotent_attempts; ++i) {
    if (i > 0) co_await clock_.sleep(options_.retry.delay_min);
    if (i > 0 && record_life && clock_.monotonic_now() - first_sent >= *record_life - drift_margin(options_)) {
      co_return ReleaseStatus::unknown;
    }
    CallResult result = co_await release_call(key, token, request);
    if (!result.replied()) {
      earlier_reply_lost = earlier_reply_lost || result.status == CallStatus::unknown;
      continue;
    }
    if (result.reply.is_error()) throw_error_reply("release", key, result.reply);
    if (result.reply.is_integer(1)) co_return ReleaseStatus::released;
    // Without a record, a lost send may have released the key this retry found gone. With one, the retry
    // answers what the first run that got through did (its record), so its 0 is the truth.
    co_return earlier_reply_lost && !record_life ? ReleaseStatus::released : ReleaseStatus::not_owned;
  }
  co_return ReleaseStatus::unknown;
}

Task<ReleaseStatus> SingleKeyLock::release(Lease& lease) {
  LOCKCHECK_ASSERT(!lease.token.empty());  // only a granted lease is released
  lease.known_lost = true;  // from here on the lease is never counted held, whatever the reply
  return release_token(lease.key, lease.token);
}

Task<RenewStatus> SingleKeyLock::renew(Lease& lease) {
  if (lease.known_lost) co_return RenewStatus::lost;
  LOCKCHECK_ASSERT(!lease.token.empty());  // only a granted lease is renewed
  const MonoTime valid_before = lease.valid_until;
  const Micros ttl_us = std::chrono::duration_cast<Micros>(options_.ttl);
  for (std::uint32_t i = 0; i < options_.retry.idempotent_attempts; ++i) {
    if (i > 0) co_await clock_.sleep(options_.retry.delay_min);
    const MonoTime sent_at = clock_.monotonic_now();
    CallResult result = co_await renew_call(lease.key, lease.token);
    if (!result.replied()) continue;
    if (result.reply.is_error()) throw_error_reply("renew", lease.key, result.reply);
    if (result.reply.is_integer(1)) {
      lease.valid_until = std::max(lease.valid_until, sent_at + ttl_us - drift_margin(options_));
      co_return RenewStatus::renewed;
    }
    lease.known_lost = true;
    LOCKCHECK_ASSERT(lease.valid_until == valid_before);  // a failed renew never extends the validity
    co_return RenewStatus::lost;
  }
  // An unknown renewal changed nothing the holder believes: still held, and valid no longer than before.
  LOCKCHECK_ASSERT(!lease.known_lost && lease.valid_until == valid_before);
  co_return RenewStatus::unknown;
}

}  // namespace lockcheck::detail
