#include "lockcheck/variants/reentrant_hash_lock.hpp"

#include <fmt/format.h>

#include "lockcheck/assert.hpp"
#include "lockcheck/scripts.hpp"
#include "lockcheck/variants/same_slot_key.hpp"

namespace lockcheck {
namespace {

std::string reentry_refused(const std::string& key) {
  return fmt::format("reentry refused: this lock object's hold on '{}' is gone (the key expired or another owner has "
                     "it); release its lease and acquire afresh", key);
}

}  // namespace


const std::string& ReentrantHashLock::owner_id() {
  if (owner_id_.empty()) owner_id_ = entropy_.token_hex();
  return owner_id_;
}

std::string ReentrantHashLock::make_token() { return owner_id() + ":" + std::to_string(++generations_); }

std::string ReentrantHashLock::new_request_id() { return owner_id() + ":r" + std::to_string(++requests_); }

std::string ReentrantHashLock::request_key(const std::string& key, const std::string& request_id) {
  return detail::same_slot_key(key, "req", request_id);
}

const Script& ReentrantHashLock::acquire_script() const {
  static const Script script(scripts::reentrant_hash_acquire);
  return script;
}
const Script& ReentrantHashLock::renew_script() const {
  static const Script script(scripts::reentrant_hash_renew);
  return script;
}
const Script& ReentrantMaxTtlLock::acquire_script() const {
  static const Script script(scripts::reentrant_maxttl_acquire);
  return script;
}
const Script& ReentrantMaxTtlLock::renew_script() const {
  static const Script script(scripts::reentrant_maxttl_renew);
  return script;
}

Task<AcquireResult> ReentrantHashLock::acquire(std::string key, Micros wait) {
  return acquire_with_ttl(std::move(key), wait, options_.ttl);
}

Task<AcquireResult> ReentrantHashLock::acquire_with_ttl(std::string key, Micros wait, Millis ttl) {
  AcquireResult result = co_await acquire_loop(std::move(key), wait, ttl);
  if (result.lease) remember_hold(*result.lease);
  co_return result;
}

detail::SingleKeyLock::Identity ReentrantHashLock::identity_for(const std::string& key) {
  std::lock_guard lock(holds_mutex_);
  const auto found = holds_.find(key);
  if (found != holds_.end()) {
    std::vector<HeldLease>& held = found->second;
    LOCKCHECK_ASSERT(!held.empty());  // a key stays listed only while it has leases (erased below when none is left)
    std::erase_if(held, [](const HeldLease& lease) {
      const std::shared_ptr<HoldMark> mark = lease.mark.lock();
      return mark == nullptr || mark->released.load();
    });
    // The latest grant's: an older lease that still lives may name a hold that expired before it.
    if (!held.empty()) return Identity{held.back().token, true};
    holds_.erase(found);
  }
  return Identity{make_token(), false};
}

void ReentrantHashLock::remember_hold(Lease& lease) {
  lease.hold_mark = std::make_shared<HoldMark>();
  std::lock_guard lock(holds_mutex_);
  holds_[lease.key].push_back(HeldLease{lease.hold_mark, lease.token});
}

Task<detail::SingleKeyLock::Attempt> ReentrantHashLock::attempt(const std::string& key, const std::string& token,
                                                                bool after_lost_reply) {
  co_return co_await attempt_with_ttl(key, token, after_lost_reply, options_.ttl, Request{new_request_id(), {}});
}

Task<detail::SingleKeyLock::PastRecordCheck> ReentrantHashLock::check_past_record(const std::string& key,
                                                                                  const std::string& token,
                                                                                  const Request& request) {
  LOCKCHECK_ASSERT(!token.empty() && !request.id.empty());  // an acquire's token and request, as acquire_loop drew them
  PastRecordCheck check;
  Command hexists{std::string("HEXISTS"), key, token};
  CallResult counted = co_await call(std::move(hexists));
  if (!counted.replied()) {
    check.next = PastRecord::taken;  // no answer: asked again after the pause, as a lost attempt is retried
    check.attempt.call = std::move(counted);
    co_return check;
  }
  if (!counted.reply.is_integer(0)) co_return check;  // our field is counted (or an error): give up
  if (!request.reenter_only) {
    check.next = PastRecord::retry_afresh;
    co_return check;
  }
  check.next = PastRecord::taken;
  check.attempt.call = std::move(counted);
  check.attempt.final_refusal = true;
  check.attempt.refused_because = reentry_refused(key);
  co_return check;
}

Task<detail::SingleKeyLock::Attempt> ReentrantHashLock::attempt_with_ttl(const std::string& key,
                                                                         const std::string& token,
                                                                         bool after_lost_reply, Millis ttl,
                                                                         const Request& request) {
  // After a lost reply the same script runs again under the same request: its record says whether the lost
  // attempt counted a hold, so no special attempt is needed.
  (void)after_lost_reply;
  // acquire_loop() refused a TTL that is not positive; every acquire request is recorded under its own id.
  LOCKCHECK_ASSERT(ttl > Millis::zero() && !request.id.empty());
  std::vector<std::string> keys{key, request_key(key, request.id)};
  std::vector<std::string> args{token, std::to_string(ttl.count())};
  if (request.reenter_only) args.emplace_back("reenter");
  Attempt tried = co_await script_attempt(acquire_script(), std::move(keys), std::move(args));
  if (request.reenter_only && tried.call.replied() && !tried.granted) {
    tried.final_refusal = true;
    tried.refused_because = reentry_refused(key);
  }
  co_return tried;
}

Task<CallResult> ReentrantHashLock::release_call(const std::string& key, const std::string& token,
                                                 const Request& request) {
  return run_release(key, token, request, std::string());
}

Task<CallResult> ReentrantHashLock::run_release(const std::string& key, const std::string& token,
                                                const Request& request, std::string announce_on,
                                                bool shard_channel) {
  static const Script script(scripts::reentrant_hash_release);
  // A release counts a hold down once, under its own request id; the acquire it undoes is a different request.
  LOCKCHECK_ASSERT(!request.id.empty() && request.id != request.undoes);
  std::vector<std::string> keys{key, request_key(key, request.id)};
  if (!request.undoes.empty()) keys.push_back(request_key(key, request.undoes));
  std::vector<std::string> args{token, ttl_ms()};
  if (!announce_on.empty()) {
    args.push_back(std::move(announce_on));
    if (shard_channel) args.push_back("shard");
  }
  return run_script(script, std::move(keys), std::move(args));
}

Task<CallResult> ReentrantHashLock::renew_call(const std::string& key, const std::string& token) {
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token, ttl_ms()};
  return run_script(renew_script(), std::move(keys), std::move(args));
}

Task<ReleaseStatus> ReentrantHashLock::release(Lease& lease) {
  // The caller gives this hold up whatever the release's outcome: later acquires no longer re-enter it.
  if (lease.hold_mark) lease.hold_mark->released.store(true);
  // A second release of the same lease would take away another hold (an outer one): refuse it.
  if (lease.known_lost) co_return ReleaseStatus::not_owned;
  co_return co_await SingleKeyLock::release(lease);
}

}  // namespace lockcheck
