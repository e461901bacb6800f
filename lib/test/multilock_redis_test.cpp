// Redisson's multi-lock and RedLock (`redisson-multilock`, `redisson-redlock`) over three real redis-servers: both
// lock with every master up; with one killed, the multi-lock, which needs every member, locks no more
// (redisson/redisson#5220), while the RedLock, which needs a majority, still does.
#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "hiredis_client.hpp"
#include "lock_testing.hpp"
#include "lockcheck/broken/redisson_multilock.hpp"
#include "redis_server.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;
using broken::RedissonMultiLock;

class MultiLockRedisTest : public ::testing::Test {
 protected:
  testing::RedisServer first, second, third;
  ConnectionOptions fast(const testing::RedisServer& server) {
    ConnectionOptions options = testing::options_for(server);
    options.connect_timeout = 100ms;
    options.command_timeout = 100ms;
    return options;
  }
  std::vector<ConnectionOptions> masters() { return {fast(first), fast(second), fast(third)}; }
};

TEST_F(MultiLockRedisTest, TakesEveryMemberAndGivesThemBack) {
  Client client(masters()), other(masters());
  RedissonMultiLock lock(client.port(), client.clock(), client.entropy(), testing::quick_lock_options(2000ms),
                         RedissonMultiLock::Needs::every_member);
  RedissonMultiLock rival(other.port(), other.clock(), other.entropy(), testing::quick_lock_options(2000ms),
                          RedissonMultiLock::Needs::every_member);
  AcquireResult held = run_sync(lock.acquire("ml:basic", Micros::zero()));
  ASSERT_EQ(held.status, AcquireStatus::acquired) << held.detail;
  for (testing::RedisServer* server : {&first, &second, &third}) {
    EXPECT_EQ(testing::HiredisClient(*server).call({"HGET", "ml:basic", held.lease->token}).text, "1");
  }
  EXPECT_EQ(run_sync(rival.acquire("ml:basic", Micros::zero())).status, AcquireStatus::busy);
  EXPECT_EQ(run_sync(lock.release(*held.lease)), ReleaseStatus::released);
  EXPECT_FALSE(testing::HiredisClient(second).exists("ml:basic"));
  EXPECT_EQ(run_sync(rival.acquire("ml:basic", Micros::zero())).status, AcquireStatus::acquired);
}

TEST_F(MultiLockRedisTest, WithOneMasterDownTheMultiLockNeverLocksAndTheRedLockDoes) {
  third.kill();
  Client client(masters());
  RedissonMultiLock multi(client.port(), client.clock(), client.entropy(), testing::quick_lock_options(2000ms),
                          RedissonMultiLock::Needs::every_member);
  RedissonMultiLock red(client.port(), client.clock(), client.entropy(), testing::quick_lock_options(2000ms),
                        RedissonMultiLock::Needs::majority);
  const AcquireResult never = run_sync(multi.acquire("ml:down", Micros(Millis(300))));
  EXPECT_NE(never.status, AcquireStatus::acquired) << "a member on a dead master cannot be taken";
  EXPECT_FALSE(never.refused_at.has_value()) << "nobody held it: " << never.detail;
  EXPECT_FALSE(testing::HiredisClient(first).exists("ml:down")) << "the members it took were given back";
  const AcquireResult quorum = run_sync(red.acquire("ml:down", Micros(Millis(300))));
  EXPECT_EQ(quorum.status, AcquireStatus::acquired) << quorum.detail;
  EXPECT_EQ(red.needed(), 2u);
  EXPECT_EQ(multi.needed(), 3u);
}

}  // namespace
}  // namespace lockcheck
