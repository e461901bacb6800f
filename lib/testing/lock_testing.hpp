#pragma once
// Shared settings for tests that lock against a private redis-server: how to reach it, and lock options with
// retries fast enough for tests (hundreds of microseconds, not the production milliseconds).
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>

#include "lockcheck/client.hpp"
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

// One key, two Clients (each its own connections): `holder` takes the lock and the key's value is its token on
// the node serving it (`get` reads that node directly), `rival` is refused while it is held, the release deletes
// the key, and then `rival` takes it. A routed Client (a cluster's, a Sentinel deployment's) must do all that on
// the master of the key.
inline void expect_one_holder_at_a_time(Client& holder, Client& rival, const std::string& key,
                                        const std::function<Reply(Command)>& on_serving_node) {
  Mutex first(holder, key);
  Mutex second(rival, key);
  std::optional<Lease> lease = first.try_acquire(Micros(0));
  ASSERT_TRUE(lease.has_value());
  EXPECT_EQ(on_serving_node({"GET", key}), Reply::bulk(lease->token));
  EXPECT_FALSE(second.try_acquire(Micros(0)).has_value());
  EXPECT_EQ(first.release(*lease), ReleaseStatus::released);
  EXPECT_EQ(on_serving_node({"EXISTS", key}), Reply::integer_reply(0));
  std::optional<Lease> next = second.try_acquire(Micros(0));
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(second.release(*next), ReleaseStatus::released);
}

}  // namespace lockcheck::testing
