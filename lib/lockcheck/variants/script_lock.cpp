#include "lockcheck/variants/script_lock.hpp"

#include <fmt/format.h>

#include "lockcheck/errors.hpp"

namespace lockcheck {
namespace {

const std::string& require(const std::string& source, const char* name) {
  if (source.empty()) throw InvalidArgument(fmt::format("the script variant needs {}.lua", name));
  return source;
}

// A reply outside the contract is an error, not a guess about what the script meant.
CallResult contract_error(CallResult call, const char* script, const char* wanted) {
  call.reply = Reply::error(fmt::format("ERR {}.lua broke the lock script contract: it returned {}; {}", script,
                                        to_string(call.reply), wanted));
  return call;
}

}  // namespace

ScriptLock::ScriptLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, const UserScripts& scripts,
                       std::size_t node)
    : SingleKeyLock(port, clock, entropy, options, node),
      acquire_(require(scripts.acquire, "acquire")),
      release_(require(scripts.release, "release")) {
  if (!scripts.renew.empty()) renew_.emplace(scripts.renew);
}

Task<detail::SingleKeyLock::Attempt> ScriptLock::attempt(const std::string& key, const std::string& token,
                                                         bool /*after_lost_reply*/) {
  Attempt result;
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token, ttl_ms(), std::to_string(clock_.wall_now().count())};
  result.call = co_await run_script(acquire_, std::move(keys), std::move(args));
  if (!result.call.replied() || result.call.reply.is_error()) co_return result;
  const Reply& reply = result.call.reply;
  if (reply.is_integer(1)) {
    result.granted = true;
  } else if (!reply.is_nil() && !reply.is_integer(0)) {
    result.call = contract_error(std::move(result.call), "acquire", "the contract wants 1, 0 or nil");
  }
  co_return result;
}

Task<CallResult> ScriptLock::release_call(const std::string& key, const std::string& token,
                                          const Request& /*request*/) {
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token};
  CallResult call = co_await run_script(release_, std::move(keys), std::move(args));
  if (call.replied() && !call.reply.is_error() && !call.reply.is_integer(1) && !call.reply.is_integer(0)) {
    call = contract_error(std::move(call), "release", "the contract wants 1 or 0");
  }
  co_return call;
}

Task<CallResult> ScriptLock::renew_call(const std::string& key, const std::string& token) {
  if (!renew_) throw InvalidArgument("this script lock has no renew.lua");
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token, ttl_ms()};
  CallResult call = co_await run_script(*renew_, std::move(keys), std::move(args));
  if (call.replied() && !call.reply.is_error() && !call.reply.is_integer(1) && !call.reply.is_integer(0)) {
    call = contract_error(std::move(call), "renew", "the contract wants 1 or 0");
  }
  co_return call;
}

}  // namespace lockcheck
