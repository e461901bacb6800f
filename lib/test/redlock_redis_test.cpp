// Redlock against five real redis-server processes this test starts on free loopback ports.
#include <gtest/gtest.h>

#include <memory>

#include "lockcheck/client.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/variants/redlock.hpp"
#include "redis_server.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;

class RedlockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int i = 0; i < 5; ++i) servers.push_back(std::make_unique<testing::RedisServer>());
  }
  std::vector<ConnectionOptions> nodes() const {
    std::vector<ConnectionOptions> out;
    for (const auto& server : servers) {
      out.push_back({.host = server->host(), .port = server->port(), .connect_timeout = 200ms, .command_timeout = 200ms});
    }
    return out;
  }
  static LockOptions options() {
    LockOptions lock;
    lock.ttl = 2000ms;
    lock.retry.delay_min = Micros(1000);
    lock.retry.delay_max = Micros(5000);
    return lock;
  }
  std::vector<std::unique_ptr<testing::RedisServer>> servers;
};

TEST_F(RedlockTest, AcquiresOnAMajorityAndReleasesEverywhere) {
  Client client(nodes());
  Redlock lock(client.port(), client.clock(), client.entropy(), options());
  EXPECT_EQ(lock.quorum(), 3u);
  AcquireResult acquired = run_sync(lock.acquire("lock:redlock", 0ms));
  ASSERT_EQ(acquired.status, AcquireStatus::acquired) << acquired.detail;
  EXPECT_GT(acquired.lease->remaining(), Micros(1900ms));
  EXPECT_EQ(run_sync(lock.renew(*acquired.lease)), RenewStatus::renewed);
  EXPECT_EQ(run_sync(lock.release(*acquired.lease)), ReleaseStatus::released);
  AcquireResult again = run_sync(lock.acquire("lock:redlock", 0ms));
  EXPECT_EQ(again.status, AcquireStatus::acquired) << "released on every node";
  run_sync(lock.release(*again.lease));
}

TEST_F(RedlockTest, SecondClientCannotGetAMajority) {
  Client first(nodes()), second(nodes());
  Redlock a(first.port(), first.clock(), first.entropy(), options());
  Redlock b(second.port(), second.clock(), second.entropy(), options());
  AcquireResult held = run_sync(a.acquire("lock:contended", 0ms));
  ASSERT_EQ(held.status, AcquireStatus::acquired);
  AcquireResult denied = run_sync(b.acquire("lock:contended", 50ms));
  EXPECT_EQ(denied.status, AcquireStatus::busy) << denied.detail;
  EXPECT_TRUE(denied.refused_at.has_value()) << "every node answered that the key was held";
  run_sync(a.release(*held.lease));
  EXPECT_EQ(run_sync(b.acquire("lock:contended", 0ms)).status, AcquireStatus::acquired);
}

TEST_F(RedlockTest, SurvivesAMinorityOfNodesDown) {
  servers[3]->kill();
  servers[4]->kill();
  Client client(nodes());
  Redlock lock(client.port(), client.clock(), client.entropy(), options());
  AcquireResult acquired = run_sync(lock.acquire("lock:minority", 0ms));
  ASSERT_EQ(acquired.status, AcquireStatus::acquired) << acquired.detail;
  EXPECT_EQ(run_sync(lock.release(*acquired.lease)), ReleaseStatus::released);
}

TEST_F(RedlockTest, FailsWithoutAMajorityAndLeavesNoKeysBehind) {
  servers[2]->kill();
  servers[3]->kill();
  servers[4]->kill();
  Client client(nodes());
  Redlock lock(client.port(), client.clock(), client.entropy(), options());
  AcquireResult denied = run_sync(lock.acquire("lock:majority-down", 0ms));
  EXPECT_EQ(denied.status, AcquireStatus::busy) << denied.detail;
  EXPECT_FALSE(denied.refused_at.has_value()) << "no node found the lock held: it failed for want of replies";
  // The two live nodes granted, and the failed attempt released them again.
  servers[2]->restart();
  servers[3]->restart();
  servers[4]->restart();
  Client other(nodes());
  Redlock lock2(other.port(), other.clock(), other.entropy(), options());
  EXPECT_EQ(run_sync(lock2.acquire("lock:majority-down", 0ms)).status, AcquireStatus::acquired);
}

}  // namespace
}  // namespace lockcheck
