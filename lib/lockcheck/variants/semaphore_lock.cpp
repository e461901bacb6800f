#include "lockcheck/variants/semaphore_lock.hpp"

#include "lockcheck/errors.hpp"
#include "lockcheck/scripts.hpp"

namespace lockcheck {
namespace {

const Script& acquire_script() {
  static const Script script(scripts::semaphore_acquire);
  return script;
}
const Script& release_script() {
  static const Script script(scripts::semaphore_release);
  return script;
}
const Script& renew_script() {
  static const Script script(scripts::semaphore_renew);
  return script;
}

}  // namespace

SemaphoreLock::SemaphoreLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::uint32_t permits,
                             std::size_t node)
    : SingleKeyLock(port, clock, entropy, options, node), permits_(permits) {
  if (permits_ == 0) throw InvalidArgument("semaphore: a semaphore needs at least one permit");
}

Task<detail::SingleKeyLock::Attempt> SemaphoreLock::attempt(const std::string& key, const std::string& token,
                                                            bool /*after_lost_reply*/) {
  // The script recognises our own id, so a retry after a lost reply needs nothing else.
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token, ttl_ms(), std::to_string(permits_)};
  return script_attempt(acquire_script(), std::move(keys), std::move(args));
}

Task<CallResult> SemaphoreLock::release_call(const std::string& key, const std::string& token,
                                             const Request& /*request*/) {
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token};
  return run_script(release_script(), std::move(keys), std::move(args));
}

Task<CallResult> SemaphoreLock::renew_call(const std::string& key, const std::string& token) {
  std::vector<std::string> keys{key};
  std::vector<std::string> args{token, ttl_ms()};
  return run_script(renew_script(), std::move(keys), std::move(args));
}

}  // namespace lockcheck
