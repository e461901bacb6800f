// The fair locks against a private redis-server: redisson-fair (RFairLock from its documented behaviour) and its
// documented bugs (a client clock ahead purges a live waiter, who is then skipped; a dead waiter blocks a free
// lock; a lost release message leaves a waiter asleep through its wait), and `fair`, which keeps its waiters'
// places on the server's clock and polls. Waits on real time wait for readiness (the queue's length), bounded.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "hiredis_client.hpp"
#include "lock_testing.hpp"
#include "lockcheck/broken/redisson_fair_lock.hpp"
#include "lockcheck/client.hpp"
#include "lockcheck/variants/fair_lock.hpp"
#include "redis_server.hpp"
#include "skewed_clock.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;
using Admin = testing::HiredisClient;
using broken::RedissonFairLock;

LockOptions quick(Millis ttl) { return testing::quick_lock_options(ttl); }

// Polls `ready` every 5 ms for at most 10 s: what the test waits for, not a guess of how long it takes.
bool eventually(const std::function<bool()>& ready) {
  for (int i = 0; i < 2000; ++i) {
    if (ready()) return true;
    std::this_thread::sleep_for(5ms);
  }
  return ready();
}

std::int64_t redisson_queue_length(testing::RedisServer& server, const std::string& key) {
  return Admin(server).call({"LLEN", RedissonFairLock::queue_key(key)}).integer;
}

std::int64_t fair_queue_length(testing::RedisServer& server, const std::string& key) {
  return Admin(server).call({"ZCARD", FairLock::queue_key(key)}).integer;
}

// A script call with 3 keys and `args` arguments (EVAL or EVALSHA): how a hook tells a fair lock's scripts apart.
bool script_call(const Command& command, std::size_t args) {
  return (command[0] == "EVAL" || command[0] == "EVALSHA") && command.size() == 3 + 3 + args && command[2] == "3";
}

// Forwards to a real port; its hook may drop a command before it is sent: a process that dies at that point.
class DroppingPort final : public Port {
 public:
  DroppingPort(Port& inner, std::function<bool(const Command&)> drop) : inner_(inner), drop_(std::move(drop)) {}
  std::size_t node_count() const override { return inner_.node_count(); }
  Task<CallResult> call(std::size_t node, Command command) override {
    if (drop_(command)) co_return CallResult::failed(CallStatus::unknown, "dropped by the test");
    co_return co_await inner_.call(node, std::move(command));
  }

 private:
  Port& inner_;
  std::function<bool(const Command&)> drop_;
};

// Forwards to a real port, pub/sub included, but the first `swallow` messages a waiter awaits never reach it.
// Counts the calls that came back, so a test can wait until a waiter has made its attempts and sleeps.
class SwallowingPort final : public Port {
 public:
  SwallowingPort(Port& inner, Clock& clock, int swallow) : inner_(inner), clock_(clock), swallow_(swallow) {}
  std::size_t node_count() const override { return inner_.node_count(); }
  Task<CallResult> call(std::size_t node, Command command) override {
    CallResult result = co_await inner_.call(node, std::move(command));
    ++calls_;
    co_return result;
  }
  Task<CallResult> subscribe(std::size_t node, std::string channel) override {
    co_return co_await inner_.subscribe(node, std::move(channel));
  }
  Task<CallResult> await_message(std::size_t node, std::string channel, Micros timeout) override {
    const MonoTime deadline = clock_.monotonic_now() + timeout;
    for (;;) {
      const Micros left = std::max(Micros::zero(), deadline - clock_.monotonic_now());
      CallResult message = co_await inner_.await_message(node, channel, left);
      if (!message.replied() || swallow_ == 0) co_return message;
      --swallow_;
      swallowed_.store(true);
    }
  }
  bool swallowed() const { return swallowed_.load(); }
  int calls() const { return calls_.load(); }

 private:
  Port& inner_;
  Clock& clock_;
  int swallow_;
  std::atomic<bool> swallowed_{false};
  std::atomic<int> calls_{0};
};

// A waiter's port sees its first attempt (it joins the queue), then, once subscribed, a second (a release before
// the subscription would have been missed); after that it sleeps. The script is loaded by then (the holder ran
// it first), so each attempt is one call.
constexpr int kAttemptsBeforeSleep = 2;

// `holder` holds `key`; `first`, then `second` (once `first` has its place: `queued` counts the places) wait for
// it, each holding it a moment when granted. Returns the order they were granted in.
std::vector<std::string> served_order(LockAlgorithm& holder, LockAlgorithm& first, LockAlgorithm& second,
                                      const std::string& key, const std::function<std::int64_t()>& queued) {
  AcquireResult held = run_sync(holder.acquire(key, Micros::zero()));
  EXPECT_EQ(held.status, AcquireStatus::acquired) << held.detail;
  if (!held.lease) return {};
  std::mutex order_mutex;
  std::vector<std::string> order;
  const auto wait_then_hold = [&](LockAlgorithm& lock, const std::string& name) {
    AcquireResult got = run_sync(lock.acquire(key, Micros(5s)));
    ASSERT_EQ(got.status, AcquireStatus::acquired) << name << ": " << got.detail;
    {
      std::lock_guard guard(order_mutex);
      order.push_back(name);
    }
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(run_sync(lock.release(*got.lease)), ReleaseStatus::released);
  };
  std::thread one([&] { wait_then_hold(first, "first"); });
  EXPECT_TRUE(eventually([&] { return queued() == 1; }));
  std::thread two([&] { wait_then_hold(second, "second"); });
  EXPECT_TRUE(eventually([&] { return queued() == 2; }));
  EXPECT_EQ(run_sync(holder.release(*held.lease)), ReleaseStatus::released);
  one.join();
  two.join();
  return order;
}

class FairRedisTest : public ::testing::Test {
 protected:
  testing::RedisServer server;
};

TEST_F(FairRedisTest, RedissonFairGrantsWaitersInArrivalOrderAndWakesTheHead) {
  Client a(testing::options_for(server)), b(testing::options_for(server)), c(testing::options_for(server));
  RedissonFairLock holder(a.port(), a.clock(), a.entropy(), quick(5000ms));
  RedissonFairLock first(b.port(), b.clock(), b.entropy(), quick(5000ms));
  RedissonFairLock second(c.port(), c.clock(), c.entropy(), quick(5000ms));
  const auto started = std::chrono::steady_clock::now();
  EXPECT_EQ(served_order(holder, first, second, "fair:order", [&] { return redisson_queue_length(server, "fair:order"); }),
            (std::vector<std::string>{"first", "second"}));
  // Each release woke the head by its channel: well under the 5 s the waiters would otherwise sleep.
  EXPECT_LT(std::chrono::steady_clock::now() - started, 4s);
}

// redisson/redisson#3004: a caller whose clock runs ahead purges a live waiter, who is not told; a later arrival
// takes the free lock while it still waits.
TEST_F(FairRedisTest, RedissonFairClientClockAheadPurgesALiveWaiterWhoIsThenSkipped) {
  Client a(testing::options_for(server)), b(testing::options_for(server)), c(testing::options_for(server)),
      d(testing::options_for(server));
  testing::SkewedClock ahead(c.clock(), Millis(60000));
  RedissonFairLock holder(a.port(), a.clock(), a.entropy(), quick(2000ms));
  SwallowingPort watched(b.port(), b.clock(), 0);
  RedissonFairLock waiter(watched, b.clock(), b.entropy(), quick(2000ms));
  RedissonFairLock skewed(c.port(), ahead, c.entropy(), quick(2000ms));
  RedissonFairLock later(d.port(), d.clock(), d.entropy(), quick(2000ms));
  AcquireResult held = run_sync(holder.acquire("fair:skew", Micros::zero()));
  ASSERT_EQ(held.status, AcquireStatus::acquired) << held.detail;
  std::atomic<bool> waiter_done{false};
  std::thread waiting([&] {
    AcquireResult got = run_sync(waiter.acquire("fair:skew", Micros(3s)));
    waiter_done = true;
    if (got.lease) run_sync(waiter.release(*got.lease));
  });
  ASSERT_TRUE(eventually([&] { return watched.calls() >= kAttemptsBeforeSleep; }));
  ASSERT_EQ(redisson_queue_length(server, "fair:skew"), 1);
  // The skewed client's try: its clock says the waiter's timeout passed long ago.
  EXPECT_EQ(run_sync(skewed.acquire("fair:skew", Micros::zero())).status, AcquireStatus::busy);
  EXPECT_EQ(redisson_queue_length(server, "fair:skew"), 0) << "the live waiter was not purged";
  EXPECT_EQ(run_sync(holder.release(*held.lease)), ReleaseStatus::released);
  AcquireResult skipped = run_sync(later.acquire("fair:skew", Micros::zero()));
  EXPECT_EQ(skipped.status, AcquireStatus::acquired) << "a later arrival went first";
  EXPECT_FALSE(waiter_done.load()) << "the purged waiter still waited";
  if (skipped.lease) run_sync(later.release(*skipped.lease));
  waiting.join();
}

// redisson/redisson#1104, #2099: a waiter that dies in the queue keeps its place until its timeout passes on
// some caller's clock (the lock's PTTL + 5 TTLs); nobody can take the free lock meanwhile. `fair` lets its place
// lapse half a TTL after its last poll.
TEST_F(FairRedisTest, ADeadWaiterBlocksRedissonFairButLapsesInFair) {
  for (const bool redisson : {true, false}) {
    const std::string key = redisson ? "fair:dead-redisson" : "fair:dead-fair";
    Client a(testing::options_for(server)), dying(testing::options_for(server)), e(testing::options_for(server));
    // The dying waiter's leave script (redisson-fair: 2 arguments; fair: 1) never reaches the server.
    DroppingPort dies(dying.port(), [&](const Command& command) { return script_call(command, redisson ? 2 : 1); });
    std::unique_ptr<LockAlgorithm> holder, dead, next;
    if (redisson) {
      holder = std::make_unique<RedissonFairLock>(a.port(), a.clock(), a.entropy(), quick(1000ms));
      dead = std::make_unique<RedissonFairLock>(dies, dying.clock(), dying.entropy(), quick(1000ms));
      next = std::make_unique<RedissonFairLock>(e.port(), e.clock(), e.entropy(), quick(1000ms));
    } else {
      holder = std::make_unique<FairLock>(a.port(), a.clock(), a.entropy(), quick(1000ms));
      dead = std::make_unique<FairLock>(dies, dying.clock(), dying.entropy(), quick(1000ms));
      next = std::make_unique<FairLock>(e.port(), e.clock(), e.entropy(), quick(1000ms));
    }
    AcquireResult held = run_sync(holder->acquire(key, Micros::zero()));
    ASSERT_EQ(held.status, AcquireStatus::acquired) << held.detail;
    EXPECT_EQ(run_sync(dead->acquire(key, Micros::zero())).status, AcquireStatus::busy);
    EXPECT_EQ(redisson ? redisson_queue_length(server, key) : fair_queue_length(server, key), 1)
        << "the dead waiter's place stays";
    EXPECT_EQ(run_sync(holder->release(*held.lease)), ReleaseStatus::released);
    AcquireResult got = run_sync(next->acquire(key, Micros(2s)));
    if (redisson) {
      EXPECT_EQ(got.status, AcquireStatus::busy) << "the free lock was granted past the dead waiter";
      EXPECT_FALSE(Admin(server).exists(key)) << "the lock stayed free all along";
    } else {
      ASSERT_EQ(got.status, AcquireStatus::acquired) << got.detail;
      run_sync(next->release(*got.lease));
    }
  }
}

// redisson/redisson#3730: the release message to the waiter at the queue's head is lost; it sleeps until the
// time its last attempt named (second in line: the holder's lease + a thread wait time) or its budget ends,
// while the free lock waits for it and refuses everyone else.
TEST_F(FairRedisTest, RedissonFairLostReleaseMessageLeavesTheWaiterAsleepThroughItsWait) {
  Client a(testing::options_for(server)), h(testing::options_for(server)), b(testing::options_for(server)),
      n(testing::options_for(server));
  SwallowingPort loses(b.port(), b.clock(), 1);
  RedissonFairLock holder(a.port(), a.clock(), a.entropy(), quick(1000ms));
  RedissonFairLock head(h.port(), h.clock(), h.entropy(), quick(1000ms));
  RedissonFairLock asleep(loses, b.clock(), b.entropy(), quick(1000ms));
  RedissonFairLock newcomer(n.port(), n.clock(), n.entropy(), quick(1000ms));
  AcquireResult held = run_sync(holder.acquire("fair:message", Micros::zero()));
  ASSERT_EQ(held.status, AcquireStatus::acquired) << held.detail;
  std::atomic<bool> head_released{false};
  std::thread first([&] {
    AcquireResult got = run_sync(head.acquire("fair:message", Micros(5s)));
    ASSERT_EQ(got.status, AcquireStatus::acquired) << got.detail;
    EXPECT_EQ(run_sync(head.release(*got.lease)), ReleaseStatus::released);
    head_released = true;
  });
  ASSERT_TRUE(eventually([&] { return redisson_queue_length(server, "fair:message") == 1; }));
  std::chrono::steady_clock::time_point granted_at;
  std::thread second([&] {
    AcquireResult got = run_sync(asleep.acquire("fair:message", Micros(2500ms)));
    granted_at = std::chrono::steady_clock::now();
    ASSERT_EQ(got.status, AcquireStatus::acquired) << got.detail;
    run_sync(asleep.release(*got.lease));
  });
  ASSERT_TRUE(eventually([&] { return loses.calls() >= kAttemptsBeforeSleep; }));
  ASSERT_EQ(redisson_queue_length(server, "fair:message"), 2);
  EXPECT_EQ(run_sync(holder.release(*held.lease)), ReleaseStatus::released);
  ASSERT_TRUE(eventually([&] { return head_released.load(); }));
  const auto free_from = std::chrono::steady_clock::now();
  ASSERT_TRUE(eventually([&] { return loses.swallowed(); }));
  EXPECT_EQ(run_sync(newcomer.acquire("fair:message", Micros::zero())).status, AcquireStatus::busy)
      << "the free lock waits for the sleeping head";
  EXPECT_FALSE(Admin(server).exists("fair:message"));
  first.join();
  second.join();
  EXPECT_GE(granted_at - free_from, 1500ms) << "the waiter woke without its message";
}

// `fair` keeps no client's clock: a waiter whose clock runs a minute ahead neither purges nor is purged.
TEST_F(FairRedisTest, FairGrantsInArrivalOrderWhateverTheClientsClocks) {
  Client a(testing::options_for(server)), b(testing::options_for(server)), c(testing::options_for(server));
  testing::SkewedClock ahead(c.clock(), Millis(60000));
  FairLock holder(a.port(), a.clock(), a.entropy(), quick(1000ms));
  FairLock first(b.port(), b.clock(), b.entropy(), quick(1000ms));
  FairLock second(c.port(), ahead, c.entropy(), quick(1000ms));
  EXPECT_EQ(served_order(holder, first, second, "fair:clocks", [&] { return fair_queue_length(server, "fair:clocks"); }),
            (std::vector<std::string>{"first", "second"}));
  EXPECT_FALSE(Admin(server).exists(FairLock::queue_key("fair:clocks"))) << "the queue goes with its last waiter";
}

}  // namespace
}  // namespace lockcheck
