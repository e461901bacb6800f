// The thread-safety promises the public headers make (client.hpp, mutex.hpp), exercised with real threads
// against a private redis-server. tools/test also runs these under ThreadSanitizer (build-tsan), where a
// data race fails the test even when the counts below happen to come out right.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "hiredis_client.hpp"
#include "lock_testing.hpp"
#include "lockcheck/mutex.hpp"
#include "redis_server.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;
using Admin = testing::HiredisClient;

MutexOptions shared_options() { return testing::quick_mutex_options(5000ms, 30s); }

template <typename Body>
void on_threads(int count, Body body) {
  std::vector<std::thread> threads;
  for (int t = 0; t < count; ++t) threads.emplace_back(body, t);
  for (auto& thread : threads) thread.join();
}

class ThreadSafety : public ::testing::Test {
 protected:
  testing::RedisServer server;
};

// One Client shared by threads that each lock their own key: calls are serialised inside the Client.
TEST_F(ThreadSafety, OneClientManyMutexesOnManyThreads) {
  Client client(testing::options_for(server));
  constexpr int kThreads = 4, kIterations = 25;
  std::atomic<int> sections{0};
  on_threads(kThreads, [&](int t) {
    Mutex mutex(client, "lock:per-thread:" + std::to_string(t), shared_options());
    for (int i = 0; i < kIterations; ++i) {
      std::lock_guard hold(mutex);
      EXPECT_FALSE(mutex.lost());
      sections.fetch_add(1);
    }
  });
  EXPECT_EQ(sections.load(), kThreads * kIterations);
}

// Lockers take `mutex` `iterations` times each, holding it `hold`, while an observer calls lost(), lease() and
// (when `observer_renews`) renew() from its own thread. Returns the most lockers ever inside at once.
int max_inside_with_observer(Mutex& mutex, int lockers, int iterations, Millis hold, bool observer_renews) {
  int inside = 0;  // deliberately unsynchronised: only the lock protects it (TSan checks the claim)
  int max_inside = 0;
  std::atomic<bool> done{false};
  std::thread observer([&] {
    for (int i = 0; i < 10'000 && !done.load(); ++i) {
      (void)mutex.lost();
      (void)mutex.lease();
      if (observer_renews) (void)mutex.renew();
      std::this_thread::sleep_for(1ms);
    }
  });
  on_threads(lockers, [&](int) {
    for (int i = 0; i < iterations; ++i) {
      std::lock_guard hold_lock(mutex);
      ++inside;
      max_inside = std::max(max_inside, inside);
      if (hold > Millis::zero()) std::this_thread::sleep_for(hold);
      --inside;
    }
  });
  done = true;
  observer.join();
  return max_inside;
}

// One Mutex shared by threads: lock/unlock exclude each other, and the observers (lost, lease, renew) may
// be called from any thread at any time.
TEST_F(ThreadSafety, OneMutexSharedByLockersAndObservers) {
  Client client(testing::options_for(server));
  Mutex mutex(client, "lock:shared-mutex", shared_options());
  EXPECT_EQ(max_inside_with_observer(mutex, 3, 20, 0ms, true), 1);
}

// The watchdog option: a renewal thread per held lease writes the lease's validity while lockers and an
// observer read it (LeaseRenewal), and unlock stops it (StopSignal). Holds of 120 ms against a 300 ms TTL
// make every hold renew at least once; exclusion must hold throughout.
TEST_F(ThreadSafety, WatchdogMutexSharedByLockersAndObservers) {
  Client client(testing::options_for(server));
  MutexOptions options = testing::quick_mutex_options(300ms, 30s);
  options.watchdog = WatchdogOptions{};
  Mutex mutex(client, "lock:watchdog-mutex", options);
  EXPECT_EQ(max_inside_with_observer(mutex, 3, 4, 120ms, false), 1);
}

// A Guard is used by one thread at a time but may move between threads, like std::unique_lock.
TEST_F(ThreadSafety, GuardMovesToAnotherThreadAndReleasesThere) {
  Client client(testing::options_for(server));
  Mutex mutex(client, "lock:moved-guard", shared_options());
  std::optional<Guard> guard(mutex.guard());
  const std::string token = guard->lease().token;
  ReleaseStatus released = ReleaseStatus::unknown;
  std::thread other([&, moved = std::move(*guard)]() mutable {
    EXPECT_EQ(moved.lease().token, token);
    EXPECT_TRUE(moved.renew());
    released = moved.release();
  });
  other.join();
  guard.reset();  // the moved-from guard owns nothing and releases nothing
  EXPECT_EQ(released, ReleaseStatus::released);
  Admin admin(server);
  EXPECT_FALSE(admin.exists("lock:moved-guard"));
}

// Lease-level calls with separate leases from many threads on one Mutex.
TEST_F(ThreadSafety, LeaseCallsFromManyThreads) {
  Client client(testing::options_for(server));
  Mutex mutex(client, "lock:leases", shared_options());
  constexpr int kThreads = 4, kIterations = 15;
  std::atomic<int> granted{0};
  on_threads(kThreads, [&](int) {
    for (int i = 0; i < kIterations; ++i) {
      std::optional<Lease> lease = mutex.try_acquire(5s);
      if (!lease) continue;
      granted.fetch_add(1);
      EXPECT_EQ(mutex.renew(*lease), RenewStatus::renewed);
      EXPECT_EQ(mutex.release(*lease), ReleaseStatus::released);
    }
  });
  EXPECT_EQ(granted.load(), kThreads * kIterations);
}

}  // namespace
}  // namespace lockcheck
