// lockcheck::CountingSemaphore against a private redis-server: std::counting_semaphore's interface, N holders and
// no more, per-thread permits (threads of one object never wait for each other locally), a dead holder's permit
// back after its TTL, and the lease rules Mutex has (lost(), renew()). Lost replies: variants_redis_test.cpp.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "hiredis_client.hpp"
#include "lock_testing.hpp"
#include "lockcheck/counting_semaphore.hpp"
#include "redis_server.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;
using Admin = testing::HiredisClient;

MutexOptions semaphore_options(Millis ttl = 5000ms) { return testing::quick_mutex_options(ttl, Micros(Millis(5000))); }

TEST(CountingSemaphore, AdmitsAsManyHoldersAsPermitsAcrossClients) {
  testing::RedisServer server;
  Client a(testing::options_for(server)), b(testing::options_for(server)), c(testing::options_for(server));
  CountingSemaphore first(a, "sem:n", 2, semaphore_options()), second(b, "sem:n", 2, semaphore_options()), third(c, "sem:n", 2, semaphore_options());
  EXPECT_EQ(first.max(), 2u);
  ASSERT_TRUE(first.try_acquire());
  ASSERT_TRUE(second.try_acquire());
  EXPECT_FALSE(third.try_acquire());
  EXPECT_EQ(Admin(server).call({"ZCARD", "sem:n"}).integer, 2);
  first.release();
  EXPECT_TRUE(third.try_acquire_for(1s));
  EXPECT_FALSE(third.lost());
  second.release();
  third.release();
  EXPECT_FALSE(Admin(server).exists("sem:n")) << "the last release removes the key";
}

// Threads of one object each take a permit of their own, without waiting for each other locally; no more than
// the permits are ever inside, and each thread's release returns its own permit.
TEST(CountingSemaphore, ThreadsOfOneObjectEachHoldTheirOwnPermit) {
  testing::RedisServer server;
  Client client(testing::options_for(server));
  CountingSemaphore slots(client, "sem:threads", 2, semaphore_options());
  std::atomic<int> inside{0}, most{0}, rounds{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int round = 0; round < 20; ++round) {
        slots.acquire();
        const int now = ++inside;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {
        }
        EXPECT_TRUE(slots.lease().has_value());
        std::this_thread::sleep_for(1ms);
        --inside;
        slots.release();
        ++rounds;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(rounds.load(), 80);
  EXPECT_LE(most.load(), 2);
  EXPECT_EQ(most.load(), 2) << "two threads of one object held at once";
  EXPECT_FALSE(Admin(server).exists("sem:threads"));
}

TEST(CountingSemaphore, AThreadHoldsOnePermitThroughAcquireAndReleasesOnlyItsOwn) {
  testing::RedisServer server;
  Client client(testing::options_for(server));
  std::vector<std::string> problems;
  MutexOptions options = semaphore_options();
  options.on_release_problem = [&](const std::string& message) { problems.push_back(message); };
  CountingSemaphore slots(client, "sem:own", 3, options);
  ASSERT_TRUE(slots.try_acquire());
  EXPECT_THROW(slots.try_acquire(), InvalidArgument) << "one permit per thread through acquire()";
  std::thread other([&] { slots.release(); });  // holds nothing: releases nothing
  other.join();
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(Admin(server).call({"ZCARD", "sem:own"}).integer, 1);
  slots.release();
  EXPECT_EQ(Admin(server).call({"ZCARD", "sem:own"}).integer, 0);
}

// A holder that never releases (it died) loses its permit once its lease runs out on the server's clock; the
// next acquire drops it and takes its place. The waiter waits for that, within its budget.
TEST(CountingSemaphore, ADeadHoldersPermitComesBackAfterTheTtl) {
  testing::RedisServer server;
  Client dead(testing::options_for(server)), alive(testing::options_for(server));
  CountingSemaphore gone(dead, "sem:dead", 1, semaphore_options(300ms));
  CountingSemaphore waiter(alive, "sem:dead", 1, semaphore_options(300ms));
  std::optional<Lease> abandoned = gone.try_acquire_lease(Micros::zero());
  ASSERT_TRUE(abandoned.has_value());
  EXPECT_FALSE(waiter.try_acquire());
  EXPECT_TRUE(waiter.try_acquire_for(5s)) << "the dead holder's permit never came back";
  EXPECT_EQ(gone.release(*abandoned), ReleaseStatus::not_owned) << "its late release must not free the new holder";
  EXPECT_FALSE(waiter.lost());
  waiter.release();
}

TEST(CountingSemaphore, RenewMovesTheValidityAndALostPermitStaysLost) {
  testing::RedisServer server;
  Client client(testing::options_for(server)), other(testing::options_for(server));
  CountingSemaphore slots(client, "sem:renew", 1, semaphore_options(300ms));
  CountingSemaphore rival(other, "sem:renew", 1, semaphore_options(300ms));
  std::optional<Lease> lease = slots.try_acquire_lease(Micros::zero());
  ASSERT_TRUE(lease.has_value());
  const MonoTime first_valid_until = lease->valid_until;
  EXPECT_EQ(slots.renew(*lease), RenewStatus::renewed);
  EXPECT_GE(lease->valid_until, first_valid_until);
  // Its deadline passes on the server; another client takes the permit; renewing must not bring it back.
  ASSERT_TRUE(rival.try_acquire_for(5s));
  EXPECT_EQ(slots.renew(*lease), RenewStatus::lost);
  EXPECT_TRUE(lease->lost());
  EXPECT_EQ(Admin(server).call({"ZCARD", "sem:renew"}).integer, 1);
  rival.release();
}

TEST(CountingSemaphore, RefusesNoPermits) {
  testing::RedisServer server;
  Client client(testing::options_for(server));
  EXPECT_THROW(CountingSemaphore(client, "sem:zero", 0), InvalidArgument);
  EXPECT_THROW(CountingSemaphore(client, "", 1), InvalidArgument);
}

}  // namespace
}  // namespace lockcheck
