// The thread-safety promises the public headers make (client.hpp, mutex.hpp), exercised with real threads
// against a private redis-server. tools/test also runs these under ThreadSanitizer (build-tsan), where a
// data race fails the test even when the counts below happen to come out right.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include "hiredis_client.hpp"
#include "lock_testing.hpp"
#include "lockcheck/mutex.hpp"
#include "lockcheck/redisson_mutex.hpp"
#include "lockcheck/shared_mutex.hpp"
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
template <typename Lockable>
int max_inside_with_observer(Lockable& mutex, int lockers, int iterations, Millis hold, bool observer_renews) {
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

// The reentrant RedissonMutex (its watchdog always on) shared the same way: each thread's reentry is its own.
TEST_F(ThreadSafety, RedissonMutexSharedByLockersAndObservers) {
  Client client(testing::options_for(server));
  RedissonMutex mutex(client, "lock:redisson-mutex", shared_options());
  EXPECT_EQ(max_inside_with_observer(mutex, 3, 10, 0ms, true), 1);
}

// SharedMutex: writers exclude each other and every reader; readers share. Counted in plain ints that only
// the lock protects (TSan checks the claim).
TEST_F(ThreadSafety, SharedMutexReadersShareWritersExclude) {
  Client client(testing::options_for(server));
  SharedMutex mutex(client, "lock:shared-mutex-rw", shared_options());
  int writers_inside = 0;
  int max_writers_inside = 0;
  std::atomic<int> readers_inside{0};
  std::atomic<int> readers_with_writer{0};
  on_threads(4, [&](int t) {
    for (int i = 0; i < 10; ++i) {
      if (t % 2 == 0) {
        std::unique_lock write(mutex);
        ++writers_inside;
        max_writers_inside = std::max(max_writers_inside, writers_inside);
        if (readers_inside.load() != 0) readers_with_writer.fetch_add(1);
        --writers_inside;
      } else {
        std::shared_lock read(mutex);
        readers_inside.fetch_add(1);
        std::this_thread::sleep_for(1ms);
        readers_inside.fetch_sub(1);
      }
    }
  });
  EXPECT_EQ(max_writers_inside, 1);
  EXPECT_EQ(readers_with_writer.load(), 0);
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

// Release problems reported by a Mutex, collected from whichever thread reports them.
struct Problems {
  std::mutex mutex;
  std::vector<std::string> messages;
  std::function<void(const std::string&)> handler() {
    return [this](const std::string& message) {
      std::lock_guard hold(mutex);
      messages.push_back(message);
    };
  }
  std::vector<std::string> taken() {
    std::lock_guard hold(mutex);
    return messages;
  }
};

// One Mutex shared by two threads, and the first thread's section outlives the TTL (no watchdog). The second
// thread waits for it locally instead of taking the expired key in Redis, so each thread's lost(), lease()
// and unlock() are about its own lease: the first sees its own lease, lost; its unlock() finds its own key
// expired (reported) and never deletes the second's; the second gets the lock only once the first lets go.
// The first thread's section ends early if the second gets the lock meanwhile (it must not), so the facts
// below do not depend on how long anything took beyond "1.2 s is more than a 300 ms TTL".
TEST_F(ThreadSafety, SectionOutlivingTheTtlKeepsEachThreadsOwnLease) {
  Client client(testing::options_for(server));
  Problems problems;
  MutexOptions options = testing::quick_mutex_options(300ms, 30s);
  options.on_release_problem = problems.handler();
  Mutex mutex(client, "lock:outlived", options);

  std::atomic<bool> first_holds{false}, first_unlocking{false}, first_unlocked{false}, second_holds{false};
  std::string first_token;  // written by the first thread before first_holds
  bool first_lost = false;
  std::optional<Lease> first_lease;
  std::thread first([&] {
    mutex.lock();
    first_token = mutex.lease()->token;
    first_holds = true;
    const auto section_end = std::chrono::steady_clock::now() + 1200ms;  // 4x the TTL
    while (!second_holds.load() && std::chrono::steady_clock::now() < section_end) std::this_thread::sleep_for(5ms);
    first_lost = mutex.lost();
    first_lease = mutex.lease();
    first_unlocking = true;
    mutex.unlock();
    first_unlocked = true;
  });
  while (!first_holds.load()) std::this_thread::sleep_for(1ms);

  bool second_saw_no_lease = false, second_locked = false, first_was_unlocking = false;
  std::string second_token;
  std::thread second([&] {
    second_saw_no_lease = mutex.lost() && !mutex.lease() && !mutex.renew();
    second_locked = mutex.try_lock_for(10s);
    first_was_unlocking = first_unlocking.load();
    if (!second_locked) return;
    second_token = mutex.lease()->token;
    second_holds = true;
    while (!first_unlocked.load()) std::this_thread::sleep_for(1ms);
    mutex.unlock();
  });
  first.join();
  second.join();

  EXPECT_TRUE(second_saw_no_lease) << "a thread that holds nothing sees no lease, not another thread's";
  EXPECT_TRUE(first_lost) << "the first thread's own lease ran out during its section";
  ASSERT_TRUE(first_lease.has_value());
  EXPECT_EQ(first_lease->token, first_token) << "lease() is the calling thread's own lease";
  ASSERT_TRUE(second_locked);
  EXPECT_TRUE(first_was_unlocking) << "the second thread got the lock while the first still held it";
  EXPECT_NE(second_token, first_token);
  const std::vector<std::string> reported = problems.taken();
  ASSERT_GE(reported.size(), 1u) << "the first unlock() must find its own key expired, not release another's";
  EXPECT_NE(reported[0].find("expired"), std::string::npos) << reported[0];
}

// unlock() from a thread that holds nothing is reported and releases nothing: the holder's key stays, and the
// holder still sees, renews and releases its own lease.
TEST_F(ThreadSafety, UnlockByAThreadThatHoldsNothingReleasesNothing) {
  Client client(testing::options_for(server));
  Problems problems;
  MutexOptions options = shared_options();
  options.on_release_problem = problems.handler();
  Mutex mutex(client, "lock:foreign-unlock", options);
  mutex.lock();
  const std::string token = mutex.lease()->token;
  bool other_saw_no_lease = false;
  std::thread other([&] {
    mutex.unlock();
    other_saw_no_lease = mutex.lost() && !mutex.lease() && !mutex.renew();
  });
  other.join();
  EXPECT_TRUE(other_saw_no_lease);
  ASSERT_EQ(problems.taken().size(), 1u);
  EXPECT_NE(problems.taken()[0].find("holds no lease"), std::string::npos) << problems.taken()[0];
  Admin admin(server);
  EXPECT_EQ(admin.get("lock:foreign-unlock"), token) << "another thread's unlock() released the holder's key";
  EXPECT_FALSE(mutex.lost());
  ASSERT_TRUE(mutex.lease().has_value());
  EXPECT_EQ(mutex.lease()->token, token);
  EXPECT_TRUE(mutex.renew());
  mutex.unlock();
  EXPECT_FALSE(admin.exists("lock:foreign-unlock"));
  EXPECT_EQ(problems.taken().size(), 1u);
}

// A second thread waits for the holder locally, within its own budget: try_lock() refuses at once and
// try_lock_for() gives up while the holder still holds; neither disturbs the holder's lease.
TEST_F(ThreadSafety, SecondThreadWaitsWithinItsBudget) {
  Client client(testing::options_for(server));
  Mutex mutex(client, "lock:budget", shared_options());
  mutex.lock();
  const std::string token = mutex.lease()->token;
  std::atomic<bool> holder_unlocking{false};
  bool tried = true, timed = true, holder_still_held = false;
  std::thread other([&] {
    tried = mutex.try_lock();
    timed = mutex.try_lock_for(200ms);
    holder_still_held = !holder_unlocking.load();
  });
  other.join();
  EXPECT_FALSE(tried);
  EXPECT_FALSE(timed);
  EXPECT_TRUE(holder_still_held);
  EXPECT_EQ(mutex.lease()->token, token);
  EXPECT_FALSE(mutex.lost());
  holder_unlocking = true;
  mutex.unlock();
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
