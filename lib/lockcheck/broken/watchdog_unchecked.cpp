#include "lockcheck/broken/watchdog_unchecked.hpp"

namespace lockcheck::broken {

Task<CallResult> UncheckedRenewTokenLock::renew_call(const std::string& key, const std::string& /*token*/) {
  // THE BUG: extends the key whoever holds it (PEXPIRE replies 1 whenever the key exists).
  Command pexpire{"PEXPIRE", key, ttl_ms()};
  return call(std::move(pexpire));
}

}  // namespace lockcheck::broken
