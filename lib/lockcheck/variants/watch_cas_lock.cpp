#include "lockcheck/variants/watch_cas_lock.hpp"

#include "lockcheck/assert.hpp"

namespace lockcheck {
namespace {

// Rounds of the check-and-write before giving up as an unknown outcome: each aborted round means the key
// changed under WATCH, and after a change the next GET normally settles it (someone else's token, or none).
constexpr int kMaxRounds = 4;

bool positive_integer(const Reply& reply) { return reply.kind == Reply::Kind::integer && reply.integer > 0; }

}  // namespace

Task<detail::SingleKeyLock::Attempt> WatchCasLock::attempt(const std::string& key, const std::string& token,
                                                   bool after_lost_reply) {
  LOCKCHECK_ASSERT(!token.empty());  // every acquire sends a token of its own (make_token())
  Attempt result;
  Command set{"SET", key, token, "NX", "PX", ttl_ms()};
  result.call = co_await call(std::move(set));
  result.granted = result.call.replied() && result.call.reply == Reply::ok();
  if (result.granted || !after_lost_reply || !result.call.replied() || result.call.reply.is_error()) co_return result;
  // An earlier SET may have landed: if the key holds our token, it is ours; give it a full TTL again.
  result.call = co_await if_holds(key, token, command("PEXPIRE", key, ttl_ms()));
  result.granted = result.call.replied() && result.call.reply.is_integer(1);
  co_return result;
}

Task<CallResult> WatchCasLock::release_call(const std::string& key, const std::string& token,
                                            const Request& /*request*/) {
  return if_holds(key, token, command("DEL", key));
}

Task<CallResult> WatchCasLock::renew_call(const std::string& key, const std::string& token) {
  return if_holds(key, token, command("PEXPIRE", key, ttl_ms()));
}

Task<CallResult> WatchCasLock::if_holds(const std::string& key, const std::string& token, Command write) {
  for (int round = 0; round < kMaxRounds; ++round) {
    std::optional<CallResult> settled = co_await if_holds_round(key, token, write);
    if (settled) co_return std::move(*settled);
  }
  co_return CallResult::failed(CallStatus::unknown, "the watched key kept changing");
}

Task<CallResult> WatchCasLock::abandoned(CallResult result) {
  // A transaction may still be open on the connection: never leave it to swallow later commands.
  (void)co_await call(command("DISCARD"));
  co_return result;
}

Task<std::optional<CallResult>> WatchCasLock::if_holds_round(const std::string& key, const std::string& token,
                                                             const Command& write) {
  // Only a granted lease's token is checked (an empty one would match a key set to ""), and the write is ours.
  LOCKCHECK_ASSERT(!token.empty() && !write.empty());
  CallResult watched = co_await call(command("WATCH", key));
  // WATCH lasts only on its connection: a MULTI that opens on another (a reconnect, a failover behind the
  // node's address) would run the write unconditionally.
  const std::uint64_t epoch = port_.connection_epoch(node_);
  if (!watched.replied()) co_return watched;
  if (watched.reply.is_error()) {
    // A MULTI left open by a round whose reply was lost: close it and start again.
    (void)co_await call(command("DISCARD"));
    co_return std::nullopt;
  }
  CallResult value = co_await call(command("GET", key));
  if (!value.replied()) co_return co_await abandoned(value);
  if (value.reply.is_error() || value.reply.kind != Reply::Kind::bulk || value.reply.text != token) {
    (void)co_await call(command("UNWATCH"));
    co_return value.reply.is_error() ? value : CallResult::of(Reply::integer_reply(0));
  }
  // MULTI, the write and EXEC go only on the WATCH's connection: on a new one the write would run at once.
  CallResult opened = co_await port_.call_on_connection(node_, epoch, command("MULTI"));
  if (!opened.replied()) co_return co_await abandoned(opened);
  if (opened.reply.is_error()) {  // "MULTI calls can not be nested": a stale transaction; close it, start again
    (void)co_await call(command("DISCARD"));
    co_return std::nullopt;
  }
  CallResult queued = co_await port_.call_on_connection(node_, epoch, write);
  if (!queued.replied() || queued.reply.is_error()) co_return co_await abandoned(queued);
  CallResult executed = co_await port_.call_on_connection(node_, epoch, command("EXEC"));
  if (!executed.replied()) co_return co_await abandoned(executed);
  // nil: the key changed after WATCH; an error (EXECABORT, or EXEC without MULTI after a reconnect): the write
  // did not run. Either way, check again.
  if (executed.reply.kind != Reply::Kind::array) co_return std::nullopt;
  const bool wrote = executed.reply.elements.size() == 1 && positive_integer(executed.reply.elements[0]);
  co_return CallResult::of(Reply::integer_reply(wrote ? 1 : 0));
}

}  // namespace lockcheck
