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

const Script& set_permits_script() {
  static const Script script(scripts::redisson_semaphore_set_permits);
  return script;
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
    : SingleKeyLock(port, clock, entropy, without_lease(options), node), permits_(permits) {
  if (permits_ == 0) throw InvalidArgument("redisson-semaphore: a semaphore needs at least one permit");
}

Task<bool> RedissonSemaphore::set_permits(const std::string& key) {
  for (std::uint32_t i = 0; i < options_.retry.idempotent_attempts && !permits_set_; ++i) {
    if (i > 0) co_await clock_.sleep(options_.retry.delay_min);
    std::vector<std::string> keys{key};
    std::vector<std::string> args{std::to_string(permits_), channel_of(key)};
    const CallResult call = co_await run_script(set_permits_script(), std::move(keys), std::move(args));
    if (!call.replied()) continue;
    if (call.reply.is_error()) throw_error_reply("trySetPermits", key, call.reply);
    permits_set_ = true;
  }
  co_return permits_set_;
}

Task<AcquireResult> RedissonSemaphore::acquire(std::string key, Micros wait) {
  validate_lock_key(key);
  // An application calls trySetPermits before it acquires; without a reply the acquire goes on and finds no
  // permits (or the ones another client set).
  if (!permits_set_) co_await set_permits(key);
  co_return co_await acquire_loop(std::move(key), wait, options_.ttl);
}

Task<detail::SingleKeyLock::Attempt> RedissonSemaphore::attempt(const std::string& key, const std::string& /*token*/,
                                                                bool /*after_lost_reply*/) {
  // After a lost reply Redisson sends the same command again: a second permit if the first one was taken.
  std::vector<std::string> keys{key};
  co_return co_await script_attempt(acquire_script(), std::move(keys), {});
}

Task<CallResult> RedissonSemaphore::release_call(const std::string& key, const std::string& /*token*/,
                                                 const Request& /*request*/) {
  std::vector<std::string> keys{key};
  std::vector<std::string> args{channel_of(key)};
  co_return co_await run_script(release_script(), std::move(keys), std::move(args));
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
