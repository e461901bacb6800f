#include "lockcheck/broken/redisson_permit_expirable.hpp"

#include "lockcheck/scripts.hpp"

namespace lockcheck::broken {
namespace {

const Script& expirable_acquire_script() {
  static const Script script(scripts::redisson_permit_expirable_acquire);
  return script;
}
const Script& expirable_release_script() {
  static const Script script(scripts::redisson_permit_expirable_release);
  return script;
}
const Script& expirable_renew_script() {
  static const Script script(scripts::redisson_permit_expirable_renew);
  return script;
}

}  // namespace

RedissonPermitExpirableSemaphore::RedissonPermitExpirableSemaphore(Port& port, Clock& clock, Entropy& entropy,
                                                                   const LockOptions& options, std::uint32_t permits,
                                                                   std::size_t node)
    : RedissonPermits(port, clock, entropy, options, permits, node, "redisson-permit-expirable") {}

Task<detail::SingleKeyLock::Attempt> RedissonPermitExpirableSemaphore::attempt(
    const std::string& key, const std::string& token, bool /*after_lost_reply*/) {
  // After a lost reply Redisson sends the same command again, with the same permit id.
  std::vector<std::string> keys{key, timeouts_key(key)};
  std::vector<std::string> args{token, std::to_string(clock_.wall_now().count()), ttl_ms()};
  return script_attempt(expirable_acquire_script(), std::move(keys), std::move(args));
}

Task<CallResult> RedissonPermitExpirableSemaphore::release_call(const std::string& key, const std::string& token,
                                                                const Request& /*request*/) {
  std::vector<std::string> keys{key, timeouts_key(key)};
  std::vector<std::string> args{token, channel_of(key)};
  return run_script(expirable_release_script(), std::move(keys), std::move(args));
}

Task<CallResult> RedissonPermitExpirableSemaphore::renew_call(const std::string& key, const std::string& token) {
  std::vector<std::string> keys{timeouts_key(key)};
  std::vector<std::string> args{token, std::to_string(clock_.wall_now().count()), ttl_ms()};
  return run_script(expirable_renew_script(), std::move(keys), std::move(args));
}

}  // namespace lockcheck::broken
