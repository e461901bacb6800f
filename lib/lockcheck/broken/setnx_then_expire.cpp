#include "lockcheck/broken/setnx_then_expire.hpp"

namespace lockcheck::broken {

Task<detail::SingleKeyLock::Attempt> SetnxThenExpireLock::attempt(const std::string& key, const std::string& token,
                                                                  bool after_lost_reply) {
  Attempt result;
  bool ours = false;
  if (after_lost_reply) {
    // Our earlier SETNX may have landed: the key holding our token means it did.
    Command get{"GET", key};
    result.call = co_await call(std::move(get));
    if (!result.call.replied() || result.call.reply.is_error()) co_return result;
    ours = !result.call.reply.is_nil() && result.call.reply.text == token;
  }
  if (!ours) {
    // Step 1: SETNX key token (no expiry yet).
    Command setnx{"SETNX", key, token};
    result.call = co_await call(std::move(setnx));
    if (!result.call.replied() || result.call.reply.is_error()) co_return result;
    if (!result.call.reply.is_integer(1)) co_return result;  // busy
  }
  // THE BUG: between step 1 and step 2 the key exists without a TTL. Dying here leaves it forever.
  // Step 2: PEXPIRE key ttl. Like the articles' code, the grant does not depend on its reply.
  Command expire{"PEXPIRE", key, ttl_ms()};
  CallResult expired = co_await call(std::move(expire));
  if (expired.replied() && expired.reply.is_error()) {
    result.call = std::move(expired);
    co_return result;
  }
  result.granted = true;
  co_return result;
}

}  // namespace lockcheck::broken
