#include "lockcheck/broken/exists_then_set.hpp"

namespace lockcheck::broken {

Task<detail::SingleKeyLock::Attempt> ExistsThenSetLock::attempt(const std::string& key, const std::string& token,
                                                                bool after_lost_reply) {
  Attempt result;
  if (after_lost_reply) {
    // Our earlier SET may have landed: the key holding our token means it did.
    Command get{"GET", key};
    result.call = co_await call(std::move(get));
    if (!result.call.replied() || result.call.reply.is_error()) co_return result;
    if (result.call.reply.text == token && !result.call.reply.is_nil()) {
      result.granted = true;
      co_return result;
    }
  }
  // Step 1: is the lock free?
  Command exists{"EXISTS", key};
  result.call = co_await call(std::move(exists));
  if (!result.call.replied()) {
    // EXISTS writes nothing: nothing of ours can be on the server.
    result.call.status = CallStatus::not_sent;
    co_return result;
  }
  if (result.call.reply.is_error() || !result.call.reply.is_integer(0)) co_return result;  // busy or error
  // Step 2: take it. THE BUG: another client may have taken it since step 1, and this SET overwrites it.
  Command set{"SET", key, token, "PX", ttl_ms()};
  result.call = co_await call(std::move(set));
  result.granted = result.call.replied() && result.call.reply == Reply::ok();
  co_return result;
}

}  // namespace lockcheck::broken
