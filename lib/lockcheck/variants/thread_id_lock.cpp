#include "lockcheck/variants/thread_id_lock.hpp"

#include "lockcheck/errors.hpp"
#include "lockcheck/scripts.hpp"

namespace lockcheck::broken {
namespace {

const Script& reclaim_script() {
  static const Script script(scripts::token_reclaim);
  return script;
}

}  // namespace

ThreadIdLock::ThreadIdLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::string thread_id,
                           std::size_t node)
    : SingleKeyLock(port, clock, entropy, options, node), thread_id_(std::move(thread_id)) {
  if (thread_id_.empty()) throw InvalidArgument("thread-id lock: the thread id must not be empty");
}

Task<detail::SingleKeyLock::Attempt> ThreadIdLock::attempt(const std::string& key, const std::string& token,
                                                           bool after_lost_reply) {
  Attempt result;
  if (after_lost_reply) {
    // Recognises "thread-1" as ours — including another process's "thread-1".
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

}  // namespace lockcheck::broken
