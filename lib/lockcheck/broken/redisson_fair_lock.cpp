#include "lockcheck/broken/redisson_fair_lock.hpp"

#include <algorithm>

#include "lockcheck/scripts.hpp"

namespace lockcheck::broken {
namespace {

const Script& redisson_fair_acquire_script() {
  static const Script script(scripts::redisson_fair_acquire);
  return script;
}
const Script& redisson_fair_release_script() {
  static const Script script(scripts::redisson_fair_release);
  return script;
}
const Script& redisson_fair_leave_script() {
  static const Script script(scripts::redisson_fair_leave);
  return script;
}
const Script& redisson_fair_renew_script() {
  static const Script script(scripts::reentrant_hash_renew);
  return script;
}

}  // namespace

const std::string& RedissonFairLock::owner_id() {
  if (owner_.empty()) owner_ = entropy_.token_hex() + ":1";
  return owner_;
}

Task<detail::SingleKeyLock::Attempt> RedissonFairLock::attempt(const std::string& key, const std::string& token,
                                                               bool /*after_lost_reply*/) {
  // After a lost reply Redisson sends the same script again: a second hold when the first one was granted.
  std::vector<std::string> keys{key, queue_key(key), timeouts_key(key)};
  std::vector<std::string> args{token, ttl_ms(), std::to_string(thread_wait_time().count()), now_ms()};
  Attempt tried = co_await script_attempt(redisson_fair_acquire_script(), std::move(keys), std::move(args));
  const Reply& reply = tried.call.reply;
  if (tried.call.replied() && reply.kind == Reply::Kind::array && reply.elements.size() == 2) {
    turn_in_[key] = Micros(Millis(reply.elements[1].integer));
  }
  co_return tried;
}

Task<CallResult> RedissonFairLock::release_call(const std::string& key, const std::string& token,
                                                const Request& /*request*/) {
  std::vector<std::string> keys{key, queue_key(key), timeouts_key(key)};
  std::vector<std::string> args{token, ttl_ms(), channel_prefix(key), now_ms()};
  return run_script(redisson_fair_release_script(), std::move(keys), std::move(args));
}

Task<CallResult> RedissonFairLock::renew_call(const std::string& key, const std::string& token) {
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token, ttl_ms()};
  return run_script(redisson_fair_renew_script(), std::move(keys), std::move(args));
}

Task<void> RedissonFairLock::wait_to_retry(const std::string& key, Micros pause, Micros left) {
  if (pubsub_unavailable_ || port_.shard_channels()) {
    co_await clock_.sleep(pause);
    co_return;
  }
  const std::string channel = channel_prefix(key) + owner_id();
  if (subscribed_.count(channel) == 0) {
    const CallResult subscribed = co_await port_.subscribe(node_, channel);
    if (subscribed.status == CallStatus::not_sent && subscribed.detail == "this port has no pub/sub") {
      pubsub_unavailable_ = true;
    }
    if (!subscribed.replied() || subscribed.reply.is_error()) {
      co_await clock_.sleep(pause);
      co_return;
    }
    subscribed_.insert(channel);
    co_return;  // retry at once: a release before the subscription took effect was not announced to us
  }
  // Sleep until the release message or until our turn by the scores, within the budget. A turn already due
  // (our timeout is near) is retried after the backoff.
  const auto turn = turn_in_.find(key);
  const Micros until_turn = turn == turn_in_.end() || turn->second <= Micros::zero() ? pause : turn->second;
  co_await port_.await_message(node_, channel, std::min(until_turn, left));
}

Task<void> RedissonFairLock::gave_up(const std::string& key, const std::string& token) {
  std::vector<std::string> keys{key, queue_key(key), timeouts_key(key)};
  std::vector<std::string> args{token, channel_prefix(key)};
  co_await run_script(redisson_fair_leave_script(), std::move(keys), std::move(args));
}

}  // namespace lockcheck::broken
