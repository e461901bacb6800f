#include "lockcheck/broken/rw_hash_timestamps_lock.hpp"

#include "lockcheck/scripts.hpp"

namespace lockcheck::broken {

Task<AcquireResult> RwHashTimestampsLock::acquire_shared(std::string key, Micros wait) {
  return acquire_loop(std::move(key), wait, options_.ttl, true);
}

// The write acquire script counts "our field is already there" as granted, so a retry after a lost reply
// needs no separate reclaim.
Task<detail::SingleKeyLock::Attempt> RwHashTimestampsLock::attempt(const std::string& key, const std::string& token,
                                                                   bool after_lost_reply) {
  (void)after_lost_reply;
  static const Script script(scripts::rw_hash_timestamps_acquire_write);
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token, ttl_ms(), wall_now_ms()};
  return script_attempt(script, std::move(keys), std::move(args));
}

// A retried read acquire rewrites our own read field: no second hold, no separate reclaim.
Task<detail::SingleKeyLock::Attempt> RwHashTimestampsLock::attempt_shared(const std::string& key,
                                                                          const std::string& token,
                                                                          bool after_lost_reply, Millis ttl) {
  (void)after_lost_reply;
  static const Script script(scripts::rw_hash_timestamps_acquire_read);
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token, std::to_string(ttl.count()), wall_now_ms()};
  return script_attempt(script, std::move(keys), std::move(args));
}

Task<CallResult> RwHashTimestampsLock::release_call(const std::string& key, const std::string& token,
                                                    const Request& /*request*/) {
  static const Script script(scripts::rw_hash_timestamps_release);
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token};
  return run_script(script, std::move(keys), std::move(args));
}

Task<CallResult> RwHashTimestampsLock::renew_call(const std::string& key, const std::string& token) {
  static const Script script(scripts::rw_hash_timestamps_renew);
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token, ttl_ms(), wall_now_ms()};
  return run_script(script, std::move(keys), std::move(args));
}

}  // namespace lockcheck::broken
