#include "lockcheck/variants/rw_owned_lock.hpp"

#include "lockcheck/scripts.hpp"
#include "lockcheck/variants/same_slot_key.hpp"

namespace lockcheck {

std::string RwOwnedLock::given_back_key(const std::string& key, const std::string& token) {
  return detail::same_slot_key(key, "done", token);
}

Task<AcquireResult> RwOwnedLock::acquire_shared(std::string key, Micros wait) {
  return acquire_loop(std::move(key), wait, options_.ttl, true);
}

// Both acquire scripts count "already holds our token" as granted, so a retry after a lost reply needs no
// separate reclaim.
Task<detail::SingleKeyLock::Attempt> RwOwnedLock::attempt(const std::string& key, const std::string& token,
                                                          bool after_lost_reply) {
  (void)after_lost_reply;
  static const Script script(scripts::rw_owned_acquire_write);
  std::vector<std::string> keys{key, given_back_key(key, token)};
  std::vector<std::string> args{token, ttl_ms()};
  return script_attempt(script, std::move(keys), std::move(args));
}

Task<detail::SingleKeyLock::Attempt> RwOwnedLock::attempt_shared(const std::string& key, const std::string& token,
                                                                 bool after_lost_reply, Millis ttl) {
  (void)after_lost_reply;
  static const Script script(scripts::rw_owned_acquire_read);
  std::vector<std::string> keys{key, given_back_key(key, token)};
  std::vector<std::string> args{token, std::to_string(ttl.count())};
  return script_attempt(script, std::move(keys), std::move(args));
}

Task<CallResult> RwOwnedLock::release_call(const std::string& key, const std::string& token,
                                           const Request& /*request*/) {
  static const Script script(scripts::rw_owned_release);
  std::vector<std::string> keys{key, given_back_key(key, token)};
  std::vector<std::string> args{token, ttl_ms()};
  return run_script(script, std::move(keys), std::move(args));
}

Task<CallResult> RwOwnedLock::renew_call(const std::string& key, const std::string& token) {
  static const Script script(scripts::rw_owned_renew);
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token, ttl_ms()};
  return run_script(script, std::move(keys), std::move(args));
}

}  // namespace lockcheck
