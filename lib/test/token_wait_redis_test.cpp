// token-wait against a real master and replica this test starts on free ports (replica via --replicaof):
// an acquire counts once the replica acknowledged the SET, and does not count (the key is given back) while
// the replica is gone.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "lockcheck/client.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/replicated_mutex.hpp"
#include "lockcheck/variants/token_wait_lock.hpp"
#include "hiredis_client.hpp"
#include "lock_testing.hpp"
#include "redis_server.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;
using Admin = testing::HiredisClient;
using testing::options_for;

LockOptions quick() { return testing::quick_lock_options(5000ms); }

// Polls INFO replication on `server` until it contains `needle`; false after 10 s.
bool wait_for_info(Admin& server, const std::string& needle) {
  for (int i = 0; i < 200; ++i) {
    if (server.command({"INFO", "replication"}).text.find(needle) != std::string::npos) return true;
    std::this_thread::sleep_for(50ms);
  }
  return false;
}

class TokenWait : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(wait_for_info(replica_admin, "master_link_status:up")) << "the replica never synced";
    ASSERT_TRUE(wait_for_info(master_admin, "connected_slaves:1"));
    // WAIT counts only replicas the master sees online (full sync done), not merely connected ones.
    ASSERT_TRUE(wait_for_info(master_admin, "state=online")) << "the master never saw its replica online";
  }

  // No diskless-sync delay: the replica's first full sync would otherwise wait 5 s for more replicas.
  testing::RedisServer master{{"--repl-diskless-sync-delay", "0"}};
  testing::RedisServer replica{{"--replicaof", master.host(), std::to_string(master.port())}};
  Admin master_admin{master};
  Admin replica_admin{replica};
  Client client{options_for(master)};
};

// ReplicatedMutex, the public type over token-wait: a lock_guard holds once the replica has the key.
TEST_F(TokenWait, ReplicatedMutexHoldsOnceTheReplicaHasTheKey) {
  ReplicatedMutex mutex(client, "lock:replicated", testing::quick_mutex_options(5000ms, 5s), {1, 1000ms});
  {
    std::lock_guard hold(mutex);
    ASSERT_FALSE(mutex.lost());
    EXPECT_EQ(replica_admin.get("lock:replicated"), mutex.lease()->token);
  }
  EXPECT_FALSE(master_admin.exists("lock:replicated"));
}

TEST_F(TokenWait, AcquireCountsOnceTheReplicaHasTheKey) {
  TokenWaitLock lock(client.port(), client.clock(), client.entropy(), quick(), TokenWaitOptions{1, 1000ms});
  AcquireResult got = run_sync(lock.acquire("lock:wait", Micros::zero()));
  ASSERT_EQ(got.status, AcquireStatus::acquired) << got.detail;
  EXPECT_EQ(replica_admin.get("lock:wait"), got.lease->token) << "WAIT answered after the replica applied the SET";
  EXPECT_GT(replica_admin.pttl("lock:wait"), 0);
  EXPECT_EQ(run_sync(lock.renew(*got.lease)), RenewStatus::renewed);
  EXPECT_EQ(run_sync(lock.release(*got.lease)), ReleaseStatus::released);
  EXPECT_FALSE(master_admin.exists("lock:wait"));
}

TEST_F(TokenWait, TooFewReplicasMeansNotAcquiredAndNoKeyLeftBehind) {
  TokenWaitLock two(client.port(), client.clock(), client.entropy(), quick(), TokenWaitOptions{2, 100ms});
  AcquireResult short_of_one = run_sync(two.acquire("lock:wait", Micros::zero()));
  EXPECT_EQ(short_of_one.status, AcquireStatus::busy) << short_of_one.detail;
  EXPECT_FALSE(master_admin.exists("lock:wait")) << "the unconfirmed grant was given back";

  replica.kill();
  ASSERT_TRUE(wait_for_info(master_admin, "connected_slaves:0"));
  TokenWaitLock one(client.port(), client.clock(), client.entropy(), quick(), TokenWaitOptions{1, 100ms});
  const auto started = std::chrono::steady_clock::now();
  AcquireResult alone = run_sync(one.acquire("lock:wait", Micros::zero()));
  EXPECT_EQ(alone.status, AcquireStatus::busy) << alone.detail;
  EXPECT_EQ(alone.detail, "WAIT: 0 of 1 replicas acknowledged within 100 ms");
  EXPECT_GE(std::chrono::steady_clock::now() - started, 90ms) << "WAIT blocked for its timeout";
  EXPECT_FALSE(master_admin.exists("lock:wait"));
}

TEST(TokenWaitOptionsCheck, TimeoutMustBePositiveAndWellBelowTheTtl) {
  const LockOptions options = quick();
  EXPECT_NO_THROW(validate_token_wait_options(TokenWaitOptions{1, 1250ms}, options));
  EXPECT_THROW(validate_token_wait_options(TokenWaitOptions{1, 1251ms}, options), InvalidArgument);
  EXPECT_THROW(validate_token_wait_options(TokenWaitOptions{1, 0ms}, options), InvalidArgument);
  EXPECT_THROW(validate_token_wait_options(TokenWaitOptions{0, 100ms}, options), InvalidArgument);
}

}  // namespace
}  // namespace lockcheck
