#include "lockcheck/broken/appid_thread_lock.hpp"

#include "lockcheck/scripts.hpp"

namespace lockcheck::broken {

const std::string& AppIdThreadLock::token() {
  if (token_.empty()) token_ = entropy_.token_hex() + ":" + thread_id_;
  return token_;
}

Task<AcquireResult> AppIdThreadLock::acquire_with_ttl(std::string key, Micros wait, Millis ttl) {
  return acquire_loop(std::move(key), wait, ttl);
}

Task<detail::SingleKeyLock::Attempt> AppIdThreadLock::attempt(const std::string& key, const std::string& token,
                                                              bool after_lost_reply) {
  co_return co_await attempt_with_ttl(key, token, after_lost_reply, options_.ttl, Request{});
}

Task<detail::SingleKeyLock::Attempt> AppIdThreadLock::attempt_with_ttl(const std::string& key,
                                                                       const std::string& token,
                                                                       bool after_lost_reply, Millis ttl,
                                                                       const Request& /*request*/) {
  // The script already counts "the key holds my token" as acquired, so a retry after a lost reply is the
  // same script.
  (void)after_lost_reply;
  static const Script script(scripts::appid_thread_acquire);
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token, std::to_string(ttl.count())};
  return script_attempt(script, std::move(keys), std::move(args));
}

}  // namespace lockcheck::broken
