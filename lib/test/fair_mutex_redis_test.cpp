// lockcheck::FairMutex against a private redis-server: Lockable / TimedLockable as Mutex, waiters of several
// clients served in arrival order, the thread rules Mutex has (not reentrant; a thread that holds nothing releases
// nothing), and the lease rules (lost(), renew()). The algorithm's faults (a dead waiter, skewed clocks):
// fair_redis_test.cpp.
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "hiredis_client.hpp"
#include "lock_testing.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/fair_mutex.hpp"
#include "redis_server.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;
using Admin = testing::HiredisClient;

MutexOptions fair_options(Millis ttl = 5000ms) { return testing::quick_mutex_options(ttl, Micros(Millis(5000))); }

TEST(FairMutex, IsLockableAndTimedLockableAcrossClients) {
  testing::RedisServer server;
  Client a(testing::options_for(server)), b(testing::options_for(server));
  FairMutex first(a, "fm:basic", fair_options()), second(b, "fm:basic", fair_options());
  {
    std::lock_guard hold(first);
    EXPECT_FALSE(first.lost());
    EXPECT_FALSE(second.try_lock());
    EXPECT_FALSE(second.try_lock_for(20ms));
    EXPECT_FALSE(Admin(server).exists(FairLock::queue_key("fm:basic"))) << "a waiter that gave up left the queue";
  }
  EXPECT_TRUE(second.try_lock_for(1s));
  EXPECT_TRUE(second.lease().has_value());
  EXPECT_TRUE(second.renew());
  second.unlock();
  EXPECT_FALSE(Admin(server).exists("fm:basic"));
}

TEST(FairMutex, WaitersOfSeveralClientsAreServedInArrivalOrder) {
  testing::RedisServer server;
  Client a(testing::options_for(server));
  FairMutex holder(a, "fm:order", fair_options());
  holder.lock();
  std::vector<std::unique_ptr<Client>> clients;
  std::vector<std::unique_ptr<FairMutex>> waiters;
  std::vector<std::thread> threads;
  std::mutex order_mutex;
  std::vector<int> order;
  for (int w = 0; w < 3; ++w) {
    clients.push_back(std::make_unique<Client>(testing::options_for(server)));
    waiters.push_back(std::make_unique<FairMutex>(*clients.back(), "fm:order", fair_options()));
    threads.emplace_back([&, w] {
      std::lock_guard hold(*waiters[static_cast<std::size_t>(w)]);
      std::lock_guard guard(order_mutex);
      order.push_back(w);
    });
    // The next waiter starts once this one has its place in Redis: arrival order is that order.
    for (int i = 0; i < 2000 && Admin(server).call({"ZCARD", FairLock::queue_key("fm:order")}).integer < w + 1; ++i) {
      std::this_thread::sleep_for(5ms);
    }
  }
  holder.unlock();
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
}

TEST(FairMutex, HasMutexsThreadRules) {
  testing::RedisServer server;
  Client client(testing::options_for(server));
  std::vector<std::string> problems;
  MutexOptions options = fair_options();
  options.on_release_problem = [&](const std::string& message) { problems.push_back(message); };
  FairMutex mutex(client, "fm:threads", options);
  mutex.lock();
  EXPECT_THROW(mutex.lock(), InvalidArgument) << "not reentrant";
  std::thread other([&] { mutex.unlock(); });  // holds nothing: releases nothing
  other.join();
  EXPECT_EQ(problems.size(), 1u);
  EXPECT_TRUE(Admin(server).exists("fm:threads"));
  mutex.unlock();
  EXPECT_FALSE(Admin(server).exists("fm:threads"));
  EXPECT_THROW(FairMutex(client, ""), InvalidArgument);
}

TEST(FairMutex, LeaseLevelApiHoldsOfItsOwn) {
  testing::RedisServer server;
  Client client(testing::options_for(server)), other(testing::options_for(server));
  FairMutex mutex(client, "fm:lease", fair_options(300ms)), rival(other, "fm:lease", fair_options(300ms));
  std::optional<Lease> lease = mutex.try_acquire(Micros::zero());
  ASSERT_TRUE(lease.has_value());
  EXPECT_FALSE(rival.try_acquire(Micros::zero()).has_value());
  EXPECT_EQ(mutex.renew(*lease), RenewStatus::renewed);
  // It expires on the server; the rival takes it; the old lease cannot be renewed or released any more.
  std::optional<Lease> taken = rival.try_acquire(Micros(Millis(5000)));
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(mutex.renew(*lease), RenewStatus::lost);
  EXPECT_EQ(mutex.release(*lease), ReleaseStatus::not_owned);
  EXPECT_EQ(rival.release(*taken), ReleaseStatus::released);
}

}  // namespace
}  // namespace lockcheck
