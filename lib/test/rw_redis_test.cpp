// The read-write variant rw-owned against a real redis-server this test starts on a free port, through the
// production seams (Client).
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "lockcheck/client.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/variants/rw_owned_lock.hpp"
#include "lockcheck/broken/rw_two_keys_lock.hpp"
#include "lockcheck/variants/token_lock.hpp"
#include "hiredis_client.hpp"
#include "lock_testing.hpp"
#include "lossy_port.hpp"
#include "redis_server.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;
using Admin = testing::HiredisClient;

LockOptions quick(Millis ttl = 30000ms) { return testing::quick_lock_options(ttl); }

using testing::options_for;

class RwOwned : public ::testing::Test {
 protected:
  testing::RedisServer server;
};

TEST_F(RwOwned, ReadersShareAndAWriterWaitsForTheLast) {
  Client client(options_for(server));
  Admin admin(server);
  RwOwnedLock lock(client.port(), client.clock(), client.entropy(), quick());
  AcquireResult r1 = run_sync(lock.acquire_shared("lock:rw", Micros::zero()));
  ASSERT_EQ(r1.status, AcquireStatus::acquired) << r1.detail;
  EXPECT_TRUE(r1.lease->shared);
  AcquireResult r2 = run_sync(lock.acquire_shared("lock:rw", Micros::zero()));
  ASSERT_EQ(r2.status, AcquireStatus::acquired) << r2.detail;
  EXPECT_GT(admin.pttl("lock:rw"), 0);
  EXPECT_EQ(run_sync(lock.acquire("lock:rw", Micros::zero())).status, AcquireStatus::busy) << "readers inside";

  EXPECT_EQ(run_sync(lock.release_shared(*r1.lease)), ReleaseStatus::released);
  EXPECT_TRUE(admin.exists("lock:rw")) << "one reader's release keeps the other's hold";
  EXPECT_EQ(run_sync(lock.release_shared(*r1.lease)), ReleaseStatus::not_owned) << "only its own field";
  EXPECT_EQ(run_sync(lock.acquire("lock:rw", Micros::zero())).status, AcquireStatus::busy) << "one reader left";

  EXPECT_EQ(run_sync(lock.release_shared(*r2.lease)), ReleaseStatus::released);
  EXPECT_FALSE(admin.exists("lock:rw")) << "the last reader deletes the key";
  AcquireResult w = run_sync(lock.acquire("lock:rw", Micros::zero()));
  ASSERT_EQ(w.status, AcquireStatus::acquired) << w.detail;
  EXPECT_FALSE(w.lease->shared);
  EXPECT_EQ(run_sync(lock.acquire_shared("lock:rw", Micros::zero())).status, AcquireStatus::busy) << "writer inside";
  EXPECT_EQ(run_sync(lock.acquire("lock:rw", Micros::zero())).status, AcquireStatus::busy);
  EXPECT_EQ(run_sync(lock.renew(*w.lease)), RenewStatus::renewed);
  EXPECT_EQ(run_sync(lock.release(*w.lease)), ReleaseStatus::released);
  EXPECT_FALSE(admin.exists("lock:rw"));
}

TEST_F(RwOwned, AReaderNeverShortensTheKeyAndEverythingExpires) {
  Client client(options_for(server));
  Admin admin(server);
  RwOwnedLock long_lock(client.port(), client.clock(), client.entropy(), quick(30000ms));
  RwOwnedLock short_lock(client.port(), client.clock(), client.entropy(), quick(200ms));
  AcquireResult r1 = run_sync(long_lock.acquire_shared("lock:rw2", Micros::zero()));
  ASSERT_EQ(r1.status, AcquireStatus::acquired) << r1.detail;
  AcquireResult r2 = run_sync(short_lock.acquire_shared("lock:rw2", Micros::zero()));
  ASSERT_EQ(r2.status, AcquireStatus::acquired) << r2.detail;
  EXPECT_GT(admin.pttl("lock:rw2"), 10000) << "the short reader must not shorten the long reader's key";

  AcquireResult s = run_sync(short_lock.acquire_shared("lock:rw3", Micros::zero()));
  ASSERT_EQ(s.status, AcquireStatus::acquired) << s.detail;
  AcquireResult w = run_sync(short_lock.acquire("lock:rw3", Micros(2'000'000)));
  EXPECT_EQ(w.status, AcquireStatus::acquired) << "the reader's key expired: " << w.detail;
}

// F18's shape: one reader's release frees every reader, and a writer walks in on the other reader.
TEST_F(RwOwned, BrokenTwoKeysOneReaderReleaseFreesAll) {
  Client client(options_for(server));
  Admin admin(server);
  broken::RwTwoKeysLock lock(client.port(), client.clock(), client.entropy(), quick());
  AcquireResult r1 = run_sync(lock.acquire_shared("lock:two", Micros::zero()));
  ASSERT_EQ(r1.status, AcquireStatus::acquired) << r1.detail;
  AcquireResult r2 = run_sync(lock.acquire_shared("lock:two", Micros::zero()));
  ASSERT_EQ(r2.status, AcquireStatus::acquired) << r2.detail;
  EXPECT_EQ(run_sync(lock.acquire("lock:two", Micros::zero())).status, AcquireStatus::busy);
  EXPECT_EQ(run_sync(lock.release_shared(*r1.lease)), ReleaseStatus::released);
  EXPECT_FALSE(admin.exists("lock:two:read")) << "the whole read key is gone";
  AcquireResult w = run_sync(lock.acquire("lock:two", Micros::zero()));
  EXPECT_EQ(w.status, AcquireStatus::acquired) << "the writer enters while reader 2 still reads";
  EXPECT_FALSE(r2.lease->lost()) << "reader 2 still believes it holds the lock";
}

TEST_F(RwOwned, VariantsWithoutASharedModeSaySo) {
  Client client(options_for(server));
  TokenLock lock(client.port(), client.clock(), client.entropy(), quick());
  EXPECT_THROW(run_sync(lock.acquire_shared("lock:tok", Micros::zero())), InvalidArgument);
}

// A read grant that arrives after its validity is given back, and the acquire goes on under a token of its own
// (the given-back token refuses every attempt): it is granted. A copy of the late-granted attempt still on its
// way, landing after the reader released and the key is gone, counts nothing: it made the key afresh with a
// reader no lease stood for, which the next reader's acquire extended (the explore gate at 1000 runs, seed 949).
TEST_F(RwOwned, ACopyOfAGivenBackReadAttemptCountsNothing) {
  Client client(options_for(server));
  Admin admin(server);
  testing::LossyPort port(client.port(), &client.clock());
  RwOwnedLock lock(port, client.clock(), client.entropy(), quick(1000ms));
  port.delay_next_reply(Micros(1200ms));  // past the validity and the key's TTL: given back, the key already gone
  AcquireResult held = run_sync(lock.acquire_shared("lock:rw-copy", Micros(3s)));
  ASSERT_EQ(held.status, AcquireStatus::acquired) << held.detail;
  EXPECT_GE(held.attempts, 2u) << "the first grant came too late and was given back";
  EXPECT_EQ(run_sync(lock.release(*held.lease)), ReleaseStatus::released);
  ASSERT_FALSE(admin.exists("lock:rw-copy"));

  const CallResult copy = run_sync(port.resend_copy(0));
  ASSERT_TRUE(copy.replied()) << copy.detail;
  EXPECT_TRUE(copy.reply.is_integer(0)) << "a copy of a given-back read attempt was granted";
  EXPECT_FALSE(admin.exists("lock:rw-copy")) << "a copy of the late grant's attempt made a reader no lease stands for";
}

}  // namespace
}  // namespace lockcheck
