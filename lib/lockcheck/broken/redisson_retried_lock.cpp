#include "lockcheck/broken/redisson_retried_lock.hpp"

#include <fmt/format.h>

#include "lockcheck/scripts.hpp"

namespace lockcheck::broken {

const Script& RetriedHashLock::acquire_script() const {
  static const Script script(scripts::redisson_retried_acquire);
  return script;
}

Task<lockcheck::detail::SingleKeyLock::Attempt> RetriedHashLock::attempt_with_ttl(const std::string& key,
                                                                                  const std::string& token,
                                                                                  bool after_lost_reply, Millis ttl,
                                                                                  const Request& request) {
  // Redisson's retry re-sends the command as it was: a lost reply changes nothing in what is sent.
  (void)after_lost_reply;
  std::vector<std::string> args{token, std::to_string(ttl.count())};
  if (request.reenter_only) args.emplace_back("reenter");
  Attempt tried;
  tried.call = co_await run_script(acquire_script(), acquire_keys(key), std::move(args));
  if (tried.call.replied() && tried.call.reply.kind == Reply::Kind::integer && tried.call.reply.integer > 0) {
    tried.granted = true;
    if (fencing()) tried.fencing_token = tried.call.reply.integer;
  }
  if (request.reenter_only && tried.call.replied() && !tried.granted && !tried.call.reply.is_error()) {
    tried.final_refusal = true;
    tried.refused_because = fmt::format(
        "reentry refused: this lock object's hold on '{}' is gone (the key expired or another owner has it); "
        "release its lease and acquire afresh", key);
  }
  co_return tried;
}

}  // namespace lockcheck::broken
