// The reentrant variants (reentrant-hash, reentrant-maxttl) and the deliberately broken appid-thread against a
// real redis-server this test starts on a free port, through the production seams (Client).
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "lockcheck/client.hpp"
#include "lockcheck/broken/appid_thread_lock.hpp"
#include "lockcheck/variants/redisson_like_lock.hpp"
#include "lockcheck/variants/reentrant_hash_lock.hpp"
#include "hiredis_client.hpp"
#include "lossy_port.hpp"
#include "lock_testing.hpp"
#include "redis_server.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;
using Admin = testing::HiredisClient;

LockOptions quick(Millis ttl = 30000ms) { return testing::quick_lock_options(ttl); }

using testing::options_for;

std::int64_t hold_count(Admin& admin, const std::string& key, const std::string& owner) {
  const Reply reply = admin.command({"HGET", key, owner});
  return reply.kind == Reply::Kind::nil ? 0 : std::stoll(reply.text);
}

class Reentrant : public ::testing::Test {
 protected:
  testing::RedisServer server;
};

// S9: the same owner re-acquires, then releases twice: count 2 -> 1 -> deleted.
template <class Lock>
void counts_two_one_deleted(testing::RedisServer& server) {
  Client client(options_for(server));
  Admin admin(server);
  Lock lock(client.port(), client.clock(), client.entropy(), quick());
  AcquireResult outer = run_sync(lock.acquire("lock:re", Micros::zero()));
  ASSERT_EQ(outer.status, AcquireStatus::acquired) << outer.detail;
  EXPECT_EQ(outer.lease->token, lock.owner_id() + ":1") << "the object's first hold: its own field";
  EXPECT_EQ(hold_count(admin, "lock:re", outer.lease->token), 1);
  AcquireResult inner = run_sync(lock.acquire("lock:re", Micros::zero()));
  ASSERT_EQ(inner.status, AcquireStatus::acquired) << inner.detail;
  EXPECT_EQ(inner.lease->token, outer.lease->token) << "a reentry counts under the hold it re-enters";
  EXPECT_EQ(hold_count(admin, "lock:re", outer.lease->token), 2);
  EXPECT_GT(admin.pttl("lock:re"), 0);

  EXPECT_EQ(run_sync(lock.release(*inner.lease)), ReleaseStatus::released);
  EXPECT_EQ(hold_count(admin, "lock:re", outer.lease->token), 1);
  EXPECT_TRUE(admin.exists("lock:re")) << "the inner release keeps the outer hold";
  EXPECT_EQ(run_sync(lock.release(*inner.lease)), ReleaseStatus::not_owned) << "a second release of one lease";
  EXPECT_EQ(hold_count(admin, "lock:re", outer.lease->token), 1);

  EXPECT_EQ(run_sync(lock.release(*outer.lease)), ReleaseStatus::released);
  EXPECT_FALSE(admin.exists("lock:re"));
}

TEST_F(Reentrant, HashCountsTwoOneDeleted) { counts_two_one_deleted<ReentrantHashLock>(server); }
TEST_F(Reentrant, MaxTtlCountsTwoOneDeleted) { counts_two_one_deleted<ReentrantMaxTtlLock>(server); }

template <class Lock>
void other_owner_cannot_release_or_enter(testing::RedisServer& server) {
  Client first(options_for(server)), second(options_for(server));
  Admin admin(server);
  Lock a(first.port(), first.clock(), first.entropy(), quick());
  Lock b(second.port(), second.clock(), second.entropy(), quick());
  ASSERT_NE(a.owner_id(), b.owner_id());
  AcquireResult held = run_sync(a.acquire("lock:other", Micros::zero()));
  ASSERT_EQ(held.status, AcquireStatus::acquired) << held.detail;
  AcquireResult busy = run_sync(b.acquire("lock:other", Micros(20ms)));
  EXPECT_EQ(busy.status, AcquireStatus::busy) << busy.detail;

  // b presents a's key with b's owner id (what b would send if it believed it held the lock).
  Lease forged{"lock:other", b.owner_id() + ":1", second.clock().monotonic_now(),
               second.clock().monotonic_now() + Micros(1s), 0, false, &second.clock()};
  EXPECT_EQ(run_sync(b.release(forged)), ReleaseStatus::not_owned);
  EXPECT_EQ(hold_count(admin, "lock:other", held.lease->token), 1);
  Lease forged_renew = forged;
  forged_renew.known_lost = false;
  EXPECT_EQ(run_sync(b.renew(forged_renew)), RenewStatus::lost);
  EXPECT_EQ(run_sync(a.renew(*held.lease)), RenewStatus::renewed);
  EXPECT_EQ(run_sync(a.release(*held.lease)), ReleaseStatus::released);
  EXPECT_FALSE(admin.exists("lock:other"));
}

TEST_F(Reentrant, HashOtherOwnerHasNoEffect) { other_owner_cannot_release_or_enter<ReentrantHashLock>(server); }
TEST_F(Reentrant, MaxTtlOtherOwnerHasNoEffect) { other_owner_cannot_release_or_enter<ReentrantMaxTtlLock>(server); }

TEST_F(Reentrant, HashReentryWithShorterTtlShortensTheKey) {
  // reentrant-hash does what Redisson does (F17): its documented weak spot.
  Client client(options_for(server));
  Admin admin(server);
  ReentrantHashLock lock(client.port(), client.clock(), client.entropy(), quick(60000ms));
  AcquireResult outer = run_sync(lock.acquire("lock:short", Micros::zero()));
  ASSERT_EQ(outer.status, AcquireStatus::acquired) << outer.detail;
  AcquireResult inner = run_sync(lock.acquire_with_ttl("lock:short", Micros::zero(), 1000ms));
  ASSERT_EQ(inner.status, AcquireStatus::acquired) << inner.detail;
  EXPECT_LE(admin.pttl("lock:short"), 1000);
  EXPECT_LE(inner.lease->remaining(), Micros(1000ms));
}

TEST_F(Reentrant, MaxTtlKeepsTheLongerTtl) {
  Client client(options_for(server));
  Admin admin(server);
  ReentrantMaxTtlLock lock(client.port(), client.clock(), client.entropy(), quick(60000ms));
  AcquireResult outer = run_sync(lock.acquire("lock:max", Micros::zero()));
  ASSERT_EQ(outer.status, AcquireStatus::acquired) << outer.detail;
  AcquireResult inner = run_sync(lock.acquire_with_ttl("lock:max", Micros::zero(), 1000ms));
  ASSERT_EQ(inner.status, AcquireStatus::acquired) << inner.detail;
  EXPECT_GT(admin.pttl("lock:max"), 50000) << "a shorter reentry does not shorten the key";
  // A longer one raises it.
  AcquireResult longer = run_sync(lock.acquire_with_ttl("lock:max", Micros::zero(), 120000ms));
  ASSERT_EQ(longer.status, AcquireStatus::acquired) << longer.detail;
  EXPECT_GT(admin.pttl("lock:max"), 100000);
  // Renew with the options' 60 s does not lower the 120 s either.
  EXPECT_EQ(run_sync(lock.renew(*outer.lease)), RenewStatus::renewed);
  EXPECT_GT(admin.pttl("lock:max"), 100000);
  EXPECT_EQ(hold_count(admin, "lock:max", outer.lease->token), 3);
}

// A nested acquire while this object still holds an unreleased lease re-enters that hold; it never starts a
// fresh one. explore found the fresh one (loss alone: the outer key expired while a nested acquire's requests
// were lost; a late one created the key again with a count of 1, the inner release deleted it, and the owner
// went on in its outer section while another client held the lock).
template <class Lock>
void reentry_after_the_outer_hold_is_gone_is_refused(testing::RedisServer& server) {
  Client client(options_for(server));
  Admin admin(server);
  Lock lock(client.port(), client.clock(), client.entropy(), quick());
  AcquireResult outer = run_sync(lock.acquire("lock:gone", Micros::zero()));
  ASSERT_EQ(outer.status, AcquireStatus::acquired) << outer.detail;
  admin.command({"DEL", "lock:gone"});  // what the key's expiry does
  AcquireResult inner = run_sync(lock.acquire("lock:gone", Micros(50ms)));
  EXPECT_EQ(inner.status, AcquireStatus::busy) << "a reentry must not create the key again";
  EXPECT_NE(inner.detail.find("reentry"), std::string::npos) << inner.detail;
  EXPECT_EQ(inner.attempts, 1u) << "a hold that is gone does not come back by waiting";
  EXPECT_FALSE(admin.exists("lock:gone"));
  // Once the outer lease is released (not owned: it was lost), the object acquires afresh.
  EXPECT_EQ(run_sync(lock.release(*outer.lease)), ReleaseStatus::not_owned);
  AcquireResult fresh = run_sync(lock.acquire("lock:gone", Micros::zero()));
  ASSERT_EQ(fresh.status, AcquireStatus::acquired) << fresh.detail;
  EXPECT_EQ(hold_count(admin, "lock:gone", fresh.lease->token), 1);
  EXPECT_EQ(run_sync(lock.release(*fresh.lease)), ReleaseStatus::released);
  // A lease dropped without a release holds nothing back either.
  {
    AcquireResult dropped = run_sync(lock.acquire("lock:gone", Micros::zero()));
    ASSERT_EQ(dropped.status, AcquireStatus::acquired) << dropped.detail;
  }
  admin.command({"DEL", "lock:gone"});
  AcquireResult after_drop = run_sync(lock.acquire("lock:gone", Micros::zero()));
  EXPECT_EQ(after_drop.status, AcquireStatus::acquired) << after_drop.detail;
}

TEST_F(Reentrant, HashReentryAfterTheOuterHoldIsGoneIsRefused) {
  reentry_after_the_outer_hold_is_gone_is_refused<ReentrantHashLock>(server);
}
TEST_F(Reentrant, MaxTtlReentryAfterTheOuterHoldIsGoneIsRefused) {
  reentry_after_the_outer_hold_is_gone_is_refused<ReentrantMaxTtlLock>(server);
}

// --- retries after a lost reply count a hold once -------------------------------------------------------

using testing::LossyPort;

template <class Lock>
class ReentrantRetry : public ::testing::Test {
 protected:
  testing::RedisServer server;
  Client client{options_for(server)};
  LossyPort port{client.port(), &client.clock()};
  Admin admin{server};
  LockOptions options = quick();

  Lock make_lock() { return Lock(port, client.clock(), client.entropy(), options); }
};

using ReentrantLocks = ::testing::Types<ReentrantHashLock, ReentrantMaxTtlLock, detail::PubSubReentrantHashLock>;
TYPED_TEST_SUITE(ReentrantRetry, ReentrantLocks);

// The nested acquire ran but its reply was lost: the retry must not count a second hold, or the key outlives
// the owner's last release (until its TTL).
TYPED_TEST(ReentrantRetry, LostAcquireReplyCountsTheHoldOnce) {
  TypeParam lock = this->make_lock();
  AcquireResult outer = run_sync(lock.acquire("lock:retry", Micros::zero()));
  ASSERT_EQ(outer.status, AcquireStatus::acquired) << outer.detail;
  this->port.lose_next_replies(1);
  AcquireResult inner = run_sync(lock.acquire("lock:retry", Micros(1s)));
  ASSERT_EQ(inner.status, AcquireStatus::acquired) << inner.detail;
  EXPECT_GE(inner.attempts, 2u);
  EXPECT_EQ(hold_count(this->admin, "lock:retry", outer.lease->token), 2) << "the retried acquire counted twice";
  EXPECT_EQ(run_sync(lock.release(*inner.lease)), ReleaseStatus::released);
  EXPECT_EQ(run_sync(lock.release(*outer.lease)), ReleaseStatus::released);
  EXPECT_FALSE(this->admin.exists("lock:retry")) << "the owner's last release must free the lock";
}

// A nested acquire ran, its reply was lost, and the retry came only after a stall longer than the request's
// record while the lock key lived on (its watchdog renewed it: the renewal extends the key, not the record).
// The retry must not count the lost attempt's hold a second time: past the record, the lock asks whether its
// field is still counted and gives up instead (found by the explore gate, redisson-like, 1000 runs, seed 5:
// the owner's last release left a hold counted). The outer lease is the options' 30 s, so no load expires it;
// the nested one asks 1 s (the client trusts its record that long; the record lives 3 s), the stall lasts 3.5 s, and
// the "renewal" runs as it begins.
using HashRetry = ReentrantRetry<ReentrantHashLock>;
TEST_F(HashRetry, ARetryPastTheRequestRecordCountsNothingAgain) {
  ReentrantHashLock lock = make_lock();
  AcquireResult outer = run_sync(lock.acquire("lock:late", Micros::zero()));
  ASSERT_EQ(outer.status, AcquireStatus::acquired) << outer.detail;
  port.lose_next_replies(1);
  port.stall_next_lost_reply(Micros(3500ms), [this] { admin.command({"PEXPIRE", "lock:late", "30000"}); });
  AcquireResult inner = run_sync(lock.acquire_with_ttl("lock:late", Micros(6s), Millis(1000)));
  // Unknown, not busy: the lost attempt's hold may be among those counted (the record that would let the cleanup
  // give it back is gone), and the checkers must not read the failure as "counted nothing".
  EXPECT_EQ(inner.status, AcquireStatus::unknown) << inner.detail;
  EXPECT_EQ(hold_count(admin, "lock:late", outer.lease->token), 2)
      << "the outer hold and the lost attempt's, not a third from a retry the record no longer guarded";
}

// The same, and the cleanup's first send is lost too: its retry answers 0 from the cleanup's own record (nothing
// given back), which is the truth, not a sign that the lost send released. Reported released, the acquire ended
// busy or unreachable, as if it had counted nothing (the explore gate, redisson-like, 1000 runs, seed 23: the
// owner's next acquire re-entered the leftover hold).
TEST_F(HashRetry, ACleanupRetryAnsweringNothingGivenBackIsBelievedAfterALostSend) {
  ReentrantHashLock lock = make_lock();
  AcquireResult outer = run_sync(lock.acquire("lock:late", Micros::zero()));
  ASSERT_EQ(outer.status, AcquireStatus::acquired) << outer.detail;
  port.lose_next_replies(1);
  port.stall_next_lost_reply(Micros(3500ms), [this] {
    admin.command({"PEXPIRE", "lock:late", "30000"});
    port.drop_requests_after(1, 1);  // HEXISTS gets through; the cleanup's first send does not
  });
  AcquireResult inner = run_sync(lock.acquire_with_ttl("lock:late", Micros(6s), Millis(1000)));
  EXPECT_EQ(inner.status, AcquireStatus::unknown) << inner.detail;
  EXPECT_EQ(hold_count(admin, "lock:late", outer.lease->token), 2);
}

// The inner release ran but its reply was lost: the retry must not take away a second hold, which would free
// the outer section's lock while it runs.
TYPED_TEST(ReentrantRetry, LostReleaseReplyReleasesOneHold) {
  TypeParam lock = this->make_lock();
  AcquireResult outer = run_sync(lock.acquire("lock:retry", Micros::zero()));
  ASSERT_EQ(outer.status, AcquireStatus::acquired) << outer.detail;
  AcquireResult inner = run_sync(lock.acquire("lock:retry", Micros::zero()));
  ASSERT_EQ(inner.status, AcquireStatus::acquired) << inner.detail;
  this->port.lose_next_replies(1);
  EXPECT_EQ(run_sync(lock.release(*inner.lease)), ReleaseStatus::released);
  EXPECT_EQ(hold_count(this->admin, "lock:retry", outer.lease->token), 1) << "the retried release released twice";
  EXPECT_TRUE(this->admin.exists("lock:retry")) << "the outer hold was freed by the inner release's retry";
  EXPECT_EQ(run_sync(lock.release(*outer.lease)), ReleaseStatus::released);
  EXPECT_FALSE(this->admin.exists("lock:retry"));
}

// A grant that arrives after its validity ran out is given back, and the acquire goes on under a new request.
// A copy of the late-granted attempt still on its way, landing once the key is gone (here after the owner's
// release of the later grant), must count nothing: given back by a plain release, the attempt's record still
// said "granted", so the copy made the key afresh with a hold of ours that no lease stands for, and the owner's
// next acquire re-entered it (its last release then left one counted until the TTL).
TYPED_TEST(ReentrantRetry, ACopyOfALateGrantGivenBackCountsNothing) {
  this->options = quick(1000ms);
  TypeParam lock = this->make_lock();
  this->port.delay_next_reply(Micros(1200ms));  // past the validity and the key's TTL: given back, the key already gone
  AcquireResult held = run_sync(lock.acquire("lock:copy", Micros(3s)));
  ASSERT_EQ(held.status, AcquireStatus::acquired) << held.detail;
  EXPECT_GE(held.attempts, 2u) << "the first grant came too late and was given back";
  EXPECT_EQ(run_sync(lock.release(*held.lease)), ReleaseStatus::released);
  ASSERT_FALSE(this->admin.exists("lock:copy"));

  const CallResult copy = run_sync(this->port.resend_copy(0));
  ASSERT_TRUE(copy.replied()) << copy.detail;
  EXPECT_TRUE(copy.reply.is_integer(0)) << "the copy of a request given back was granted";
  EXPECT_FALSE(this->admin.exists("lock:copy")) << "a copy of the late grant's request counted a hold again";
}

// A release held up on its way and given up on by its client lands once the owner's next hold began (the explore
// gate at 1000 runs, seed 401, on redisson-like: 1.26 s late, after a failover). It must count nothing down:
// under one field per lock object it took a hold of the next one's, and the inner release that followed deleted
// the key under the owner's outer section.
TYPED_TEST(ReentrantRetry, AReleaseLandingInTheOwnersNextHoldCountsNothing) {
  TypeParam lock = this->make_lock();
  AcquireResult before = run_sync(lock.acquire("lock:late-release", Micros::zero()));
  ASSERT_EQ(before.status, AcquireStatus::acquired) << before.detail;
  ASSERT_EQ(run_sync(lock.release(*before.lease)), ReleaseStatus::released);  // the release script is loaded
  AcquireResult first = run_sync(lock.acquire("lock:late-release", Micros::zero()));
  ASSERT_EQ(first.status, AcquireStatus::acquired) << first.detail;
  this->port.hold_back_next_request(1000);  // and its retries dropped: the client gives up
  EXPECT_EQ(run_sync(lock.release(*first.lease)), ReleaseStatus::unknown);
  this->port.drop_next_requests(0);
  this->admin.command({"DEL", "lock:late-release"});  // the first hold's key expired
  AcquireResult outer = run_sync(lock.acquire("lock:late-release", Micros::zero()));
  ASSERT_EQ(outer.status, AcquireStatus::acquired) << outer.detail;
  AcquireResult inner = run_sync(lock.acquire("lock:late-release", Micros::zero()));
  ASSERT_EQ(inner.status, AcquireStatus::acquired) << inner.detail;

  const CallResult copy = run_sync(this->port.resend_copy(0));
  ASSERT_TRUE(copy.replied()) << copy.detail;
  EXPECT_TRUE(copy.reply.is_integer(0)) << "the earlier hold's release counted the next hold down: " << copy.reply.text;
  EXPECT_EQ(hold_count(this->admin, "lock:late-release", outer.lease->token), 2);
  EXPECT_EQ(run_sync(lock.release(*inner.lease)), ReleaseStatus::released);
  EXPECT_TRUE(this->admin.exists("lock:late-release")) << "the inner release deleted the key under the outer section";
  EXPECT_EQ(run_sync(lock.release(*outer.lease)), ReleaseStatus::released);
  EXPECT_FALSE(this->admin.exists("lock:late-release"));
}

// A nested acquire that never reached Redis, given up at once: its cleanup must not take away the outer hold.
TYPED_TEST(ReentrantRetry, CleanupOfAnAcquireThatNeverRanKeepsTheOuterHold) {
  this->options.retry.unknown_outcome_attempts = 0;
  TypeParam lock = this->make_lock();
  AcquireResult outer = run_sync(lock.acquire("lock:retry", Micros::zero()));
  ASSERT_EQ(outer.status, AcquireStatus::acquired) << outer.detail;
  this->port.drop_next_requests(1);
  AcquireResult inner = run_sync(lock.acquire("lock:retry", Micros::zero()));
  EXPECT_NE(inner.status, AcquireStatus::acquired);
  EXPECT_EQ(hold_count(this->admin, "lock:retry", outer.lease->token), 1) << "the cleanup released the outer hold";
  EXPECT_EQ(run_sync(lock.release(*outer.lease)), ReleaseStatus::released);
  EXPECT_FALSE(this->admin.exists("lock:retry"));
}

// A nested acquire that ran but whose reply was lost, given up at once: its cleanup gives back exactly that hold.
TYPED_TEST(ReentrantRetry, CleanupOfAnAcquireThatRanGivesBackItsHold) {
  this->options.retry.unknown_outcome_attempts = 0;
  TypeParam lock = this->make_lock();
  AcquireResult outer = run_sync(lock.acquire("lock:retry", Micros::zero()));
  ASSERT_EQ(outer.status, AcquireStatus::acquired) << outer.detail;
  this->port.lose_next_replies(1);
  AcquireResult inner = run_sync(lock.acquire("lock:retry", Micros::zero()));
  EXPECT_NE(inner.status, AcquireStatus::acquired);
  EXPECT_EQ(hold_count(this->admin, "lock:retry", outer.lease->token), 1);
  EXPECT_EQ(run_sync(lock.release(*outer.lease)), ReleaseStatus::released);
  EXPECT_FALSE(this->admin.exists("lock:retry"));
}

// Request records leak nothing: each carries a TTL no longer than three of the lock's (the longest TTL asked
// for), and they outlive the one TTL the client trusts them for by two more: a node clock running ahead (the
// explore gate at 1000 runs, seed 37: a jump expired a release's record before its retry, which then counted a
// second hold down and deleted the outer hold's key) must not take a record from a retry that relies on it.
TYPED_TEST(ReentrantRetry, RequestRecordsExpire) {
  TypeParam lock = this->make_lock();
  AcquireResult outer = run_sync(lock.acquire("lock:records", Micros::zero()));
  ASSERT_EQ(outer.status, AcquireStatus::acquired) << outer.detail;
  this->port.lose_next_replies(1);
  AcquireResult inner = run_sync(lock.acquire("lock:records", Micros(1s)));
  ASSERT_EQ(inner.status, AcquireStatus::acquired) << inner.detail;
  this->port.lose_next_replies(1);
  EXPECT_EQ(run_sync(lock.release(*inner.lease)), ReleaseStatus::released);
  EXPECT_EQ(run_sync(lock.release(*outer.lease)), ReleaseStatus::released);
  EXPECT_FALSE(this->admin.exists("lock:records"));
  const Reply keys = this->admin.command({"KEYS", "*"});
  EXPECT_EQ(keys.elements.size(), 4u) << "one record per acquire and per release";
  for (const Reply& record : keys.elements) {
    EXPECT_EQ(record.text.rfind("lock:records:req:{lock:records}:" + lock.owner_id() + ":", 0), 0u) << record.text;
    const std::int64_t pttl = this->admin.pttl(record.text);
    EXPECT_GT(pttl, 0) << record.text << " would never expire";
    EXPECT_LE(pttl, 3 * this->options.ttl.count()) << record.text;
    EXPECT_GT(pttl, 2 * this->options.ttl.count()) << record.text << " would not outlive a node clock running ahead";
  }
}

// A request key lands in its lock key's Redis Cluster slot (CLUSTER KEYSLOT of a cluster-enabled server),
// whether the key has a hash tag or not, and starts with the lock key.
TEST(ReentrantRequestKey, SharesTheLockKeysClusterSlot) {
  testing::RedisServer server(std::vector<std::string>{"--cluster-enabled", "yes"});
  Admin admin(server);
  for (const std::string key : {"lock:orders:42", "{user:7}:lock", "a{b}c", "{a{b}c"}) {
    const std::string record = ReentrantHashLock::request_key(key, "0123abcd:1:7");
    EXPECT_EQ(record.rfind(key, 0), 0u) << record;
    EXPECT_EQ(admin.command({"CLUSTER", "KEYSLOT", record}).integer, admin.command({"CLUSTER", "KEYSLOT", key}).integer)
        << key << " -> " << record;
  }
  // A key with braces but no hash tag cannot be given its slot by a tag: a plain suffix, documented.
  EXPECT_EQ(ReentrantHashLock::request_key("a}b", "r"), "a}b:req:r");
  EXPECT_EQ(ReentrantHashLock::request_key("lock:{}", "r"), "lock:{}:req:r");
}

TEST_F(Reentrant, AppIdThreadInnerReleaseFreesTheKey) {
  Client first(options_for(server)), second(options_for(server));
  Admin admin(server);
  broken::AppIdThreadLock a(first.port(), first.clock(), first.entropy(), quick(60000ms));
  broken::AppIdThreadLock b(second.port(), second.clock(), second.entropy(), quick(60000ms));
  ASSERT_NE(a.token(), b.token()) << "APP_ID differs between objects";
  EXPECT_NE(a.token().find(":thread-1"), std::string::npos);
  AcquireResult outer = run_sync(a.acquire("lock:app", Micros::zero()));
  ASSERT_EQ(outer.status, AcquireStatus::acquired) << outer.detail;
  EXPECT_EQ(admin.get("lock:app"), a.token());
  EXPECT_EQ(run_sync(b.acquire("lock:app", Micros(20ms))).status, AcquireStatus::busy);

  AcquireResult inner = run_sync(a.acquire_with_ttl("lock:app", Micros::zero(), 1000ms));
  ASSERT_EQ(inner.status, AcquireStatus::acquired) << inner.detail;
  EXPECT_LE(admin.pttl("lock:app"), 1000) << "THE BUG: reentry shortened the TTL";

  EXPECT_EQ(run_sync(a.release(*inner.lease)), ReleaseStatus::released);
  EXPECT_FALSE(admin.exists("lock:app")) << "THE BUG: the inner release freed the outer hold";
  AcquireResult stolen = run_sync(b.acquire("lock:app", Micros::zero()));
  EXPECT_EQ(stolen.status, AcquireStatus::acquired) << "another object gets in while the outer section runs";
}

}  // namespace
}  // namespace lockcheck
