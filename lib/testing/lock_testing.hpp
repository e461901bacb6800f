#pragma once
// Shared settings for tests that lock against a private redis-server: how to reach it, and lock options with
// retries fast enough for tests (hundreds of microseconds, not the production milliseconds).
#include "lockcheck/hiredis_port.hpp"
#include "lockcheck/lock_options.hpp"
#include "lockcheck/mutex.hpp"
#include "redis_server.hpp"

namespace lockcheck::testing {

inline ConnectionOptions options_for(const RedisServer& server) {
  return ConnectionOptions{.host = server.host(), .port = server.port()};
}

inline LockOptions quick_lock_options(Millis ttl) {
  LockOptions options;
  options.ttl = ttl;
  options.retry.delay_min = Micros(200);
  options.retry.delay_max = Micros(2000);
  return options;
}

// A Mutex with the quick retries above and a bounded lock() wait.
inline MutexOptions quick_mutex_options(Millis ttl, Micros lock_wait) {
  MutexOptions options;
  options.lock = quick_lock_options(ttl);
  options.lock_wait = lock_wait;
  return options;
}

}  // namespace lockcheck::testing
