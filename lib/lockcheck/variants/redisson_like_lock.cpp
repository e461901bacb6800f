#include "lockcheck/variants/redisson_like_lock.hpp"

#include <algorithm>

#include "lockcheck/assert.hpp"

namespace lockcheck::detail {

std::string PubSubReentrantHashLock::shard_channel_of(const std::string& key) {
  const std::size_t open = key.find('{');
  const std::size_t close = open == std::string::npos ? std::string::npos : key.find('}', open + 1);
  // The prefix has no brace, so the key's own hash tag stays the channel's first one.
  if (close != std::string::npos && close > open + 1) return "lockcheck:released:" + key;
  if (key.find_first_of("{}") != std::string::npos) return std::string();
  return "lockcheck:released:{" + key + "}";
}

std::string PubSubReentrantHashLock::channel_for(const std::string& key) const {
  return port_.shard_channels() ? shard_channel_of(key) : channel_of(key);
}

Task<CallResult> PubSubReentrantHashLock::release_call(const std::string& key, const std::string& token,
                                                       const Request& request) {
  return run_release(key, token, request, channel_for(key), port_.shard_channels());
}

Task<void> PubSubReentrantHashLock::wait_to_retry(const std::string& key, Micros pause, Micros left) {
  // acquire_loop() waits only within the acquire's budget: some of it is left, and the pause fits in it.
  LOCKCHECK_ASSERT(left > Micros::zero() && pause <= left);
  const std::string channel = channel_for(key);
  if (pubsub_unavailable_ || channel.empty()) {
    co_await clock_.sleep(pause);
    co_return;
  }
  if (subscribed_.count(channel) == 0) {
    CallResult subscribed = co_await port_.subscribe(node_, channel);
    if (subscribed.status == CallStatus::not_sent &&
        (subscribed.detail == "this port has no pub/sub" || subscribed.detail == "this port has no shard pub/sub")) {
      pubsub_unavailable_ = true;
    }
    if (!subscribed.replied() || subscribed.reply.is_error()) {
      co_await clock_.sleep(pause);
      co_return;
    }
    subscribed_.insert(channel);
    co_return;  // retry at once: a release before the subscription took effect was not announced to us
  }
  // Wait for a release, but never longer than one TTL (a lost message must not strand a waiter) or the budget.
  const Micros timeout = std::min(std::chrono::duration_cast<Micros>(options_.ttl), left);
  CallResult message = co_await port_.await_message(node_, channel, timeout);
  // No message: the subscription may be gone (broken connection, restarted node); subscribe again next time.
  if (!message.replied()) subscribed_.erase(channel);
}

}  // namespace lockcheck::detail
