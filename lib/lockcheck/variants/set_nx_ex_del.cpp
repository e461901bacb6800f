#include "lockcheck/variants/set_nx_ex_del.hpp"

#include "lockcheck/scripts.hpp"

namespace lockcheck::broken {
namespace {

const Script& reclaim_script() {
  static const Script script(scripts::token_reclaim);
  return script;
}

}  // namespace

Task<detail::SingleKeyLock::Attempt> SetNxExDelLock::attempt(const std::string& key, const std::string& token,
                                                             bool after_lost_reply) {
  Attempt result;
  if (after_lost_reply) {
    std::vector<std::string> keys{key};
    std::vector<std::string> args{token, ttl_ms()};
    result.call = co_await run_script(reclaim_script(), std::move(keys), std::move(args));
    result.granted = result.call.replied() && result.call.reply.is_integer(1);
    co_return result;
  }
  Command set{"SET", key, token, "NX", "PX", ttl_ms()};
  result.call = co_await call(std::move(set));
  result.granted = result.call.replied() && result.call.reply == Reply::ok();
  co_return result;
}

Task<ReleaseStatus> SetNxExDelLock::release_token(const std::string& key, const std::string& /*token*/) {
  bool earlier_reply_lost = false;
  for (std::uint32_t i = 0; i < options_.retry.idempotent_attempts; ++i) {
    if (i > 0) co_await clock_.sleep(options_.retry.delay_min);
    // THE BUG: no check that the key still holds our token.
    Command del{"DEL", key};
    CallResult result = co_await call(std::move(del));
    if (!result.replied()) {
      earlier_reply_lost = earlier_reply_lost || result.status == CallStatus::unknown;
      continue;
    }
    if (result.reply.is_error()) throw_error_reply("release", key, result.reply);
    if (result.reply.is_integer(1)) co_return ReleaseStatus::released;
    co_return earlier_reply_lost ? ReleaseStatus::released : ReleaseStatus::not_owned;
  }
  co_return ReleaseStatus::unknown;
}

}  // namespace lockcheck::broken
