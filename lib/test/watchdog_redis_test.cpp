// The renewing variants (watchdog, watchdog-unchecked, client-reentrant) and Mutex's watchdog option against a
// real redis-server this test starts on a free port, with the production renewal thread (ThreadSpawner).
// Real time: TTLs of 300 ms and waits of several TTLs, with margins of at least one TTL either way.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "lockcheck/client.hpp"
#include "lockcheck/mutex.hpp"
#include "lockcheck/thread_spawner.hpp"
#include "lockcheck/broken/client_reentrant_lock.hpp"
#include "lockcheck/variants/redisson_like_lock.hpp"
#include "lockcheck/variants/token_lock.hpp"
#include "lockcheck/variants/watchdog_lock.hpp"
#include "lockcheck/broken/watchdog_unchecked.hpp"
#include "hiredis_client.hpp"
#include "lock_testing.hpp"
#include "redis_server.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;
using Admin = testing::HiredisClient;
using testing::options_for;

constexpr Millis kTtl = 300ms;

class Watchdog : public ::testing::Test {
 protected:
  std::unique_ptr<WatchdogLock> watchdog(WatchdogOptions options = {}) {
    return std::make_unique<WatchdogLock>(
        std::make_unique<TokenLock>(client.port(), client.clock(), client.entropy(), testing::quick_lock_options(kTtl)),
        client.clock(), spawner, kTtl, std::move(options));
  }
  Lease acquire(LockAlgorithm& lock, const std::string& key) {
    AcquireResult result = run_sync(lock.acquire(key, Micros::zero()));
    EXPECT_EQ(result.status, AcquireStatus::acquired) << result.detail;
    return result.lease.value_or(Lease{});
  }

  testing::RedisServer server;
  Client client{options_for(server)};
  Admin admin{server};
  ThreadSpawner spawner;
};

// A hold of five TTLs keeps the key, with our token, until release; then the key is gone and stays gone.
TEST_F(Watchdog, KeepsTheLockPastItsTtlUntilRelease) {
  auto lock = watchdog();
  Lease lease = acquire(*lock, "lock:wd");
  std::this_thread::sleep_for(5 * kTtl);
  EXPECT_EQ(admin.get("lock:wd"), lease.token);
  EXPECT_FALSE(lease.lost()) << "renewals move every copy's validity forward";
  EXPECT_EQ(run_sync(lock->release(lease)), ReleaseStatus::released);
  EXPECT_FALSE(admin.exists("lock:wd"));
  // Nothing of ours renews after release: a new owner's short lock expires on time.
  admin.command({"SET", "lock:wd", "someone-else", "PX", "300"});
  std::this_thread::sleep_for(2 * kTtl);
  EXPECT_FALSE(admin.exists("lock:wd"));
}

// Fail-stop: once the key holds another token, the next renewal marks the lease lost and calls on_lost.
TEST_F(Watchdog, SignalsALostLockAndStops) {
  std::atomic<int> lost_calls{0};
  WatchdogOptions options;
  options.on_lost = [&](const std::string& key) {
    EXPECT_EQ(key, "lock:wd-lost");
    ++lost_calls;
  };
  auto lock = watchdog(options);
  Lease lease = acquire(*lock, "lock:wd-lost");
  admin.command({"SET", "lock:wd-lost", "intruder", "PX", "60000"});
  std::this_thread::sleep_for(2 * kTtl);
  EXPECT_EQ(lost_calls.load(), 1);
  EXPECT_TRUE(lease.lost());
  EXPECT_EQ(admin.get("lock:wd-lost"), "intruder");
  EXPECT_GT(admin.pttl("lock:wd-lost"), 50000) << "the owner-checked renewal never touches the intruder's TTL";
  EXPECT_EQ(run_sync(lock->release(lease)), ReleaseStatus::not_owned);
}

// max_hold bounds a hold that is never released: the key expires by its TTL after renewal stops.
TEST_F(Watchdog, StopsRenewingAfterMaxHold) {
  WatchdogOptions options;
  options.max_hold = 600ms;
  auto lock = watchdog(options);
  Lease lease = acquire(*lock, "lock:wd-max");
  std::this_thread::sleep_for(600ms + 3 * kTtl);
  EXPECT_FALSE(admin.exists("lock:wd-max"));
  EXPECT_EQ(run_sync(lock->release(lease)), ReleaseStatus::not_owned);
}

// The article's first watchdog extends whatever key is there (the deliberately broken variant).
TEST_F(Watchdog, UncheckedRenewalExtendsAnotherOwnersLock) {
  broken::WatchdogUncheckedLock lock(client.port(), client.clock(), client.entropy(), testing::quick_lock_options(kTtl),
                                     spawner, WatchdogOptions{});
  Lease lease = acquire(lock, "lock:wd-unchecked");
  // Another owner's lock with a minute to live: the unchecked renewal PEXPIREs whatever the key holds, so its
  // TTL comes down to ours. Waited for (bounded), not slept for: a loaded machine may run the renewal late.
  admin.command({"SET", "lock:wd-unchecked", "someone-else", "PX", "60000"});
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  bool touched = false;
  while (!touched && std::chrono::steady_clock::now() < deadline) {
    touched = admin.pttl("lock:wd-unchecked") <= kTtl.count();
    if (!touched) std::this_thread::sleep_for(5ms);
  }
  EXPECT_TRUE(touched) << "our renewal never touched the other owner's lock";
  EXPECT_EQ(run_sync(lock.release(lease)), ReleaseStatus::not_owned);
}

// client-reentrant: nested holds are counted in the client; releasing one key switches off the renewal of
// every key (the article's shared flag), so a second key still held expires under its holder.
TEST_F(Watchdog, ClientReentrantSharedRenewalSwitch) {
  broken::ClientReentrantLock lock(client.port(), client.clock(), client.entropy(), testing::quick_lock_options(kTtl), spawner,
                           WatchdogOptions{.max_renewals = 1000});
  Lease a = acquire(lock, "lock:cr-a");
  Lease a_inner = acquire(lock, "lock:cr-a");
  EXPECT_EQ(a_inner.token, a.token);
  Lease b = acquire(lock, "lock:cr-b");
  EXPECT_EQ(run_sync(lock.release(a_inner)), ReleaseStatus::released);
  EXPECT_EQ(admin.get("lock:cr-a"), a.token) << "an inner release keeps the lock";
  EXPECT_EQ(run_sync(lock.release(a)), ReleaseStatus::released);
  EXPECT_FALSE(admin.exists("lock:cr-a"));
  std::this_thread::sleep_for(3 * kTtl);
  EXPECT_FALSE(admin.exists("lock:cr-b")) << "b's renewal was switched off by a's release";
  EXPECT_EQ(run_sync(lock.release(b)), ReleaseStatus::not_owned);
}

// The renewal cap: after max_renewals the lock expires although its holder never released it.
TEST_F(Watchdog, ClientReentrantRenewalCap) {
  broken::ClientReentrantLock lock(client.port(), client.clock(), client.entropy(), testing::quick_lock_options(kTtl), spawner,
                           WatchdogOptions{.max_renewals = 5});
  Lease lease = acquire(lock, "lock:cr-cap");
  // Renewals every ttl/3 = 100 ms: the fifth at about 500 ms keeps the key until about 800 ms.
  std::this_thread::sleep_for(400ms);
  EXPECT_EQ(admin.get("lock:cr-cap"), lease.token) << "renewed past its first TTL";
  std::this_thread::sleep_for(1000ms);
  EXPECT_FALSE(admin.exists("lock:cr-cap"));
  EXPECT_EQ(run_sync(lock.release(lease)), ReleaseStatus::not_owned);
}

// Mutex with the watchdog option: a section three TTLs long stays exclusive; unlock stops renewal first.
TEST_F(Watchdog, MutexOptionKeepsLongSectionsExclusive) {
  MutexOptions options;
  options.lock = testing::quick_lock_options(kTtl);
  options.watchdog = WatchdogOptions{};
  Mutex mutex(client, "lock:wd-mutex", options);
  Client other_client(options_for(server));
  Mutex other(other_client, "lock:wd-mutex", MutexOptions{.lock = testing::quick_lock_options(kTtl)});
  mutex.lock();
  std::this_thread::sleep_for(3 * kTtl);
  EXPECT_FALSE(mutex.lost());
  EXPECT_FALSE(other.try_lock()) << "renewed past its TTL, the lock is still held";
  mutex.unlock();
  EXPECT_TRUE(other.try_lock());
  other.unlock();
}

// HiredisPort pub/sub: a message published after subscribe() is delivered; none means a timeout, not a hang.
TEST_F(Watchdog, PortDeliversPublishedMessagesAndTimesOut) {
  ASSERT_TRUE(run_sync(client.port().subscribe(0, "chan:a")).replied());
  admin.command({"PUBLISH", "chan:a", "one"});
  admin.command({"PUBLISH", "chan:a", "two"});
  CallResult first = run_sync(client.port().await_message(0, "chan:a", Micros(1000000)));
  ASSERT_TRUE(first.replied()) << first.detail;
  EXPECT_EQ(first.reply.text, "one");
  EXPECT_EQ(run_sync(client.port().await_message(0, "chan:a", Micros(1000000))).reply.text, "two");
  const auto before = std::chrono::steady_clock::now();
  CallResult none = run_sync(client.port().await_message(0, "chan:a", Micros(200000)));
  EXPECT_EQ(none.status, CallStatus::unknown);
  EXPECT_LT(std::chrono::steady_clock::now() - before, 2s);
  // Commands still work on the command connection while subscribed.
  EXPECT_TRUE(run_sync(client.port().call(0, {"PING"})).replied());
}

// redisson-like: reentry counts in the hash; a waiter blocked on a held lock wakes on the release's message,
// long before the one-TTL fallback (30 s here) would retry.
TEST_F(Watchdog, RedissonLikeWaiterWakesOnRelease) {
  RedissonLikeLock holder(client.port(), client.clock(), client.entropy(), testing::quick_lock_options(30000ms), spawner,
                          WatchdogOptions{});
  Lease outer = acquire(holder, "lock:rl");
  Lease inner = acquire(holder, "lock:rl");
  EXPECT_EQ(admin.command({"HGET", "lock:rl", outer.token}).text, "2");

  std::atomic<bool> acquired{false};
  std::thread waiter([&] {
    Client waiter_client(options_for(server));
    ThreadSpawner waiter_spawner;
    RedissonLikeLock lock(waiter_client.port(), waiter_client.clock(), waiter_client.entropy(),
                          testing::quick_lock_options(30000ms), waiter_spawner, WatchdogOptions{});
    AcquireResult result = run_sync(lock.acquire("lock:rl", Micros(20000000)));
    acquired = result.status == AcquireStatus::acquired;
    if (result.lease) run_sync(lock.release(*result.lease));
  });
  std::this_thread::sleep_for(300ms);  // the waiter subscribes and goes to sleep on the channel
  EXPECT_FALSE(acquired.load());
  EXPECT_EQ(run_sync(holder.release(inner)), ReleaseStatus::released);
  EXPECT_TRUE(admin.exists("lock:rl")) << "an inner release keeps the lock (and announces nothing)";
  const auto released_at = std::chrono::steady_clock::now();
  EXPECT_EQ(run_sync(holder.release(outer)), ReleaseStatus::released);
  waiter.join();
  EXPECT_TRUE(acquired.load());
  EXPECT_LT(std::chrono::steady_clock::now() - released_at, 5s) << "woken by the message, not by the 30 s fallback";
}

}  // namespace
}  // namespace lockcheck
