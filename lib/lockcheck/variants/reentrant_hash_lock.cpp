#include "lockcheck/variants/reentrant_hash_lock.hpp"

#include "lockcheck/scripts.hpp"

namespace lockcheck {

const std::string& ReentrantHashLock::owner_id() {
  if (owner_id_.empty()) owner_id_ = entropy_.token_hex() + ":1";
  return owner_id_;
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

Task<AcquireResult> ReentrantHashLock::acquire_with_ttl(std::string key, Micros wait, Millis ttl) {
  co_return co_await acquire_loop(std::move(key), wait, ttl);
}

Task<detail::SingleKeyLock::Attempt> ReentrantHashLock::attempt(const std::string& key, const std::string& token,
                                                                bool after_lost_reply) {
  co_return co_await attempt_with_ttl(key, token, after_lost_reply, options_.ttl);
}

Task<detail::SingleKeyLock::Attempt> ReentrantHashLock::attempt_with_ttl(const std::string& key,
                                                                         const std::string& token,
                                                                         bool after_lost_reply, Millis ttl) {
  // After a lost reply the same script runs again: our field is then found and counted once more (see the
  // header's weak spots).
  (void)after_lost_reply;
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token, std::to_string(ttl.count())};
  co_return co_await script_attempt(acquire_script(), std::move(keys), std::move(args));
}

Task<CallResult> ReentrantHashLock::release_call(const std::string& key, const std::string& token) {
  static const Script script(scripts::reentrant_hash_release);
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token};
  co_return co_await run_script(script, std::move(keys), std::move(args));
}

Task<CallResult> ReentrantHashLock::renew_call(const std::string& key, const std::string& token) {
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token, ttl_ms()};
  co_return co_await run_script(renew_script(), std::move(keys), std::move(args));
}

Task<ReleaseStatus> ReentrantHashLock::release(Lease& lease) {
  // A second release of the same lease would take away another hold (an outer one): refuse it.
  if (lease.known_lost) co_return ReleaseStatus::not_owned;
  co_return co_await SingleKeyLock::release(lease);
}

}  // namespace lockcheck
