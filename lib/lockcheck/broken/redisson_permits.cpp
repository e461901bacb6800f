#include "lockcheck/broken/redisson_permits.hpp"

#include <fmt/format.h>

#include "lockcheck/errors.hpp"
#include "lockcheck/scripts.hpp"

namespace lockcheck::broken {

RedissonPermits::RedissonPermits(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options,
                                 std::uint32_t permits, std::size_t node, const char* variant)
    : SingleKeyLock(port, clock, entropy, options, node), permits_(permits) {
  if (permits_ == 0) throw InvalidArgument(fmt::format("{}: a semaphore needs at least one permit", variant));
}

Task<bool> RedissonPermits::set_permits(const std::string& key) {
  static const Script script(scripts::redisson_semaphore_set_permits);
  for (std::uint32_t i = 0; i < options_.retry.idempotent_attempts && !permits_set_; ++i) {
    if (i > 0) co_await clock_.sleep(options_.retry.delay_min);
    std::vector<std::string> keys{key};
    std::vector<std::string> args{std::to_string(permits_), channel_of(key)};
    const CallResult call = co_await run_script(script, std::move(keys), std::move(args));
    if (!call.replied()) continue;
    if (call.reply.is_error()) throw_error_reply("trySetPermits", key, call.reply);
    permits_set_ = true;
  }
  co_return permits_set_;
}

Task<AcquireResult> RedissonPermits::acquire(std::string key, Micros wait) {
  validate_lock_key(key);
  // An application calls trySetPermits before it acquires; without a reply the acquire goes on and finds no
  // permits (or the ones another client set).
  if (!permits_set_) co_await set_permits(key);
  co_return co_await acquire_loop(std::move(key), wait, options_.ttl);
}

}  // namespace lockcheck::broken
