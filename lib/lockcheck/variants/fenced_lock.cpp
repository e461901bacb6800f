#include "lockcheck/variants/fenced_lock.hpp"

#include "lockcheck/assert.hpp"
#include "lockcheck/scripts.hpp"

namespace lockcheck {
namespace {

const Script& acquire_script() {
  static const Script script(scripts::fenced_acquire);
  return script;
}
const Script& reclaim_script() {
  static const Script script(scripts::fenced_reclaim);
  return script;
}

}  // namespace

Task<detail::SingleKeyLock::Attempt> FencedLock::attempt(const std::string& key, const std::string& token,
                                                         bool after_lost_reply) {
  Attempt result;
  std::vector<std::string> keys{key, fence_key(key)};
  std::vector<std::string> args{token, ttl_ms()};
  const Script& script = after_lost_reply ? reclaim_script() : acquire_script();
  result.call = co_await run_script(script, std::move(keys), std::move(args));
  if (result.call.replied() && result.call.reply.kind == Reply::Kind::integer && result.call.reply.integer > 0) {
    result.granted = true;
    result.fencing_token = result.call.reply.integer;
  }
  LOCKCHECK_ASSERT(result.granted == (result.fencing_token > 0));  // a grant always carries its fencing token
  co_return result;
}

}  // namespace lockcheck
