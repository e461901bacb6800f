#include "lockcheck/broken/redisson_fenced_lock.hpp"

#include "lockcheck/scripts.hpp"

namespace lockcheck::broken {

const Script& FencedRetriedHashLock::acquire_script() const {
  static const Script script(scripts::redisson_fenced_acquire);
  return script;
}

std::vector<std::string> FencedRetriedHashLock::acquire_keys(const std::string& key) const {
  return {key, RedissonFencedLock::token_key(key)};
}

}  // namespace lockcheck::broken
