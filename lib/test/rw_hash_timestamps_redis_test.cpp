// The deliberately broken read-write variant rw-hash-timestamps against a real redis-server this test starts
// on a free port: its basic behaviour (readers share, a writer excludes everyone, release removes only the
// caller's hold) and its flaw (a client whose wall clock runs ahead removes a live holder and walks in).
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "lockcheck/client.hpp"
#include "lockcheck/broken/rw_hash_timestamps_lock.hpp"
#include "hiredis_client.hpp"
#include "lock_testing.hpp"
#include "redis_server.hpp"
#include "skewed_clock.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;
using Admin = testing::HiredisClient;
using testing::options_for;

LockOptions quick(Millis ttl = 30000ms) { return testing::quick_lock_options(ttl); }

using testing::SkewedClock;

class RwHashTimestamps : public ::testing::Test {
 protected:
  testing::RedisServer server;
  Client client{options_for(server)};
  Admin admin{server};
  broken::RwHashTimestampsLock lock{client.port(), client.clock(), client.entropy(), quick()};
};

TEST_F(RwHashTimestamps, ReadersShareAndAWriterWaitsForTheLast) {
  AcquireResult r1 = run_sync(lock.acquire_shared("lock:ts", Micros::zero()));
  ASSERT_EQ(r1.status, AcquireStatus::acquired) << r1.detail;
  EXPECT_TRUE(r1.lease->shared);
  AcquireResult r2 = run_sync(lock.acquire_shared("lock:ts", Micros::zero()));
  ASSERT_EQ(r2.status, AcquireStatus::acquired) << r2.detail;
  EXPECT_GT(admin.pttl("lock:ts"), 0) << "the key carries a TTL";
  // The field's value is the reader's deadline by its own wall clock.
  const std::string deadline = admin.command({"HGET", "lock:ts", "read:" + r1.lease->token}).text;
  EXPECT_NEAR(std::stod(deadline), static_cast<double>((client.clock().wall_now() + 30000ms).count()), 5000.0);
  EXPECT_EQ(run_sync(lock.acquire("lock:ts", Micros::zero())).status, AcquireStatus::busy) << "readers inside";

  EXPECT_EQ(run_sync(lock.release_shared(*r1.lease)), ReleaseStatus::released);
  EXPECT_TRUE(admin.exists("lock:ts")) << "one reader's release keeps the other's hold";
  EXPECT_EQ(run_sync(lock.release_shared(*r1.lease)), ReleaseStatus::not_owned);
  EXPECT_EQ(run_sync(lock.acquire("lock:ts", Micros::zero())).status, AcquireStatus::busy) << "one reader left";
  EXPECT_EQ(run_sync(lock.release_shared(*r2.lease)), ReleaseStatus::released);
  EXPECT_FALSE(admin.exists("lock:ts")) << "the last release deletes the key";
}

TEST_F(RwHashTimestamps, AWriterExcludesReadersAndWriters) {
  AcquireResult w = run_sync(lock.acquire("lock:ts", Micros::zero()));
  ASSERT_EQ(w.status, AcquireStatus::acquired) << w.detail;
  EXPECT_FALSE(w.lease->shared);
  EXPECT_GT(admin.pttl("lock:ts"), 0);
  EXPECT_EQ(run_sync(lock.acquire_shared("lock:ts", Micros::zero())).status, AcquireStatus::busy) << "writer inside";
  EXPECT_EQ(run_sync(lock.acquire("lock:ts", Micros::zero())).status, AcquireStatus::busy);
  EXPECT_EQ(run_sync(lock.renew(*w.lease)), RenewStatus::renewed);
  EXPECT_EQ(run_sync(lock.release(*w.lease)), ReleaseStatus::released);
  EXPECT_FALSE(admin.exists("lock:ts"));
  AcquireResult r = run_sync(lock.acquire_shared("lock:ts", Micros::zero()));
  ASSERT_EQ(r.status, AcquireStatus::acquired) << r.detail;
  EXPECT_EQ(run_sync(lock.release(*r.lease)), ReleaseStatus::released);
}

TEST_F(RwHashTimestamps, BrokenAWriterWhoseClockRunsAheadRemovesALiveReader) {
  AcquireResult r = run_sync(lock.acquire_shared("lock:ts", Micros::zero()));
  ASSERT_EQ(r.status, AcquireStatus::acquired) << r.detail;
  SkewedClock ahead(client.clock(), 31000ms);  // past the reader's 30 s deadline by the writer's clock
  broken::RwHashTimestampsLock skewed(client.port(), ahead, client.entropy(), quick());
  AcquireResult w = run_sync(skewed.acquire("lock:ts", Micros::zero()));
  EXPECT_EQ(w.status, AcquireStatus::acquired) << "the writer judged the reader stale by its own clock";
  EXPECT_FALSE(r.lease->lost()) << "the reader still believes it holds the lock";
  EXPECT_EQ(run_sync(lock.renew(*r.lease)), RenewStatus::lost) << "its field is gone";
}

}  // namespace
}  // namespace lockcheck
