#include "lockcheck/broken/redisson_semaphore.hpp"

#include <algorithm>

#include "lockcheck/errors.hpp"
#include "lockcheck/scripts.hpp"

namespace lockcheck::broken {
namespace {

// A permit has no lease: the loop's validity (TTL − margin from the send) is made as long as a lease can be.
LockOptions without_lease(LockOptions options) {
  options.ttl = kMaxTtl;
  return options;
}

const Script& acquire_script() {
  static const Script script(scripts::redisson_semaphore_acquire);
  return script;
}
const Script& release_script() {
  static const Script script(scripts::redisson_semaphore_release);
  return script;
}

}  // namespace

RedissonSemaphore::RedissonSemaphore(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options,
                                     std::uint32_t permits, std::size_t node)
    : RedissonPermits(port, clock, entropy, without_lease(options), permits, node, "redisson-semaphore") {}

Task<detail::SingleKeyLock::Attempt> RedissonSemaphore::attempt(const std::string& key,
                                                                           const std::string& /*token*/,
                                                                           bool /*after_lost_reply*/) {
  // After a lost reply Redisson sends the same command again: a second permit if the first one was taken.
  std::vector<std::string> keys{key};
  return script_attempt(acquire_script(), std::move(keys), {});
}

Task<CallResult> RedissonSemaphore::release_call(const std::string& key, const std::string& /*token*/,
                                                 const Request& /*request*/) {
  std::vector<std::string> keys{key};
  std::vector<std::string> args{channel_of(key)};
  return run_script(release_script(), std::move(keys), std::move(args));
}

Task<CallResult> RedissonSemaphore::renew_call(const std::string& key, const std::string& /*token*/) {
  throw InvalidArgument("redisson-semaphore: permit of '" + key + "' has no lease to renew");
  co_return CallResult{};
}

Task<void> RedissonSemaphore::wait_to_retry(const std::string& key, Micros pause, Micros left) {
  if (pubsub_unavailable_ || port_.shard_channels()) {
    co_await clock_.sleep(pause);
    co_return;
  }
  const std::string channel = channel_of(key);
  if (!subscribed_) {
    const CallResult subscribed = co_await port_.subscribe(node_, channel);
    if (subscribed.status == CallStatus::not_sent && subscribed.detail == "this port has no pub/sub") {
      pubsub_unavailable_ = true;
    }
    if (!subscribed.replied() || subscribed.reply.is_error()) {
      co_await clock_.sleep(pause);
      co_return;
    }
    subscribed_ = true;
    co_return;  // retry at once: a release before the subscription took effect was not announced to us
  }
  // Redisson waits for a release message for the rest of the wait budget: a lost message costs all of it.
  const CallResult message = co_await port_.await_message(node_, channel, left);
  if (!message.replied()) subscribed_ = false;  // a broken subscription: subscribe again next time
}

}  // namespace lockcheck::broken
