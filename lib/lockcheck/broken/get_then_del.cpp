#include "lockcheck/broken/get_then_del.hpp"

namespace lockcheck::broken {

Task<CallResult> GetThenDelLock::release_call(const std::string& key, const std::string& token,
                                              const Request& /*request*/) {
  CallResult value = co_await call(command("GET", key));
  if (!value.replied() || value.reply.is_error()) co_return value;
  if (value.reply.kind != Reply::Kind::bulk || value.reply.text != token) co_return CallResult::of(Reply::integer_reply(0));
  // THE BUG: the key may expire and be taken by another client before this DEL arrives.
  co_return co_await call(command("DEL", key));
}

}  // namespace lockcheck::broken
