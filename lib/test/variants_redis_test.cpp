// The single-key catalogue variants (exists-then-set, setnx-then-expire, set-nx-ex-del, thread-id, fenced)
// against a real redis-server this test starts on a free port, through the production seams (Client).
// Each variant's defining behaviour — its bug, for the deliberately broken ones — is shown deterministically
// by a Port wrapper that runs a hook around one command (another client's SET, a crash, a lost reply).
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include <chrono>
#include <functional>
#include <memory>
#include <thread>

#include "lockcheck/client.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/broken/exists_then_set.hpp"
#include "lockcheck/variants/fenced_lock.hpp"
#include "lockcheck/variants/redisson_like_lock.hpp"
#include "lockcheck/broken/get_then_del.hpp"
#include "lockcheck/broken/redisson_fenced_lock.hpp"
#include "lockcheck/broken/redisson_permit_expirable.hpp"
#include "lockcheck/broken/redisson_retried_lock.hpp"
#include "lockcheck/broken/redisson_semaphore.hpp"
#include "lockcheck/variants/registry.hpp"
#include "lockcheck/variants/rw_owned_lock.hpp"
#include "lockcheck/variants/semaphore_lock.hpp"
#include "lockcheck/broken/set_nx_ex_del.hpp"
#include "lockcheck/broken/setnx_then_expire.hpp"
#include "lockcheck/broken/thread_id_lock.hpp"
#include "lockcheck/thread_spawner.hpp"
#include "lockcheck/variants/watch_cas_lock.hpp"
#include "hiredis_client.hpp"
#include "lock_testing.hpp"
#include "redis_server.hpp"
#include "skewed_clock.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;

using Admin = testing::HiredisClient;

// Forwards to a real port; a hook sees each command before it is sent and may drop it ("crash": never sent),
// run something else first, or let it run and then lose its reply.
class HookPort final : public Port {
 public:
  // reconnect_first: as if the connection had been replaced before this command (its WATCH gone, a new epoch).
  enum class Action { send, drop_request, lose_reply, reconnect_first };
  using Hook = std::function<Action(const Command&)>;

  HookPort(Port& inner, Hook hook) : inner_(inner), hook_(std::move(hook)) {}
  std::size_t node_count() const override { return inner_.node_count(); }
  std::uint64_t connection_epoch(std::size_t node) const override { return inner_.connection_epoch(node) + reconnects_; }
  Task<CallResult> call(std::size_t node, Command command) override {
    const Action action = hook_(command);
    if (action == Action::drop_request) co_return CallResult::failed(CallStatus::unknown, "dropped by the test");
    if (action == Action::reconnect_first) {
      Command unwatch{"UNWATCH"};
      (void)co_await inner_.call(node, std::move(unwatch));
      ++reconnects_;
    }
    CallResult result = co_await inner_.call(node, std::move(command));
    if (action == Action::lose_reply) co_return CallResult::failed(CallStatus::unknown, "reply lost by the test");
    co_return result;
  }

 private:
  Port& inner_;
  Hook hook_;
  std::uint64_t reconnects_ = 0;
};

LockOptions quick(Millis ttl = 5000ms) { return testing::quick_lock_options(ttl); }

using testing::options_for;

// --- behaviour every variant shares, through the registry ---------------------------------------------------

class VariantBasics : public ::testing::TestWithParam<std::string> {
 protected:
  testing::RedisServer server;
};

TEST_P(VariantBasics, AcquireBusyReleaseRenew) {
  Client first(options_for(server)), second(options_for(server));
  auto a = make_lock(GetParam(), first.port(), first.clock(), first.entropy(), quick());
  auto b = make_lock(GetParam(), second.port(), second.clock(), second.entropy(), quick());
  Admin admin(server);

  AcquireResult got = run_sync(a->acquire("lock:basic", Micros::zero()));
  ASSERT_EQ(got.status, AcquireStatus::acquired) << got.detail;
  Lease lease = *got.lease;
  EXPECT_FALSE(lease.lost());
  EXPECT_EQ(admin.get("lock:basic"), lease.token);
  EXPECT_GT(admin.pttl("lock:basic"), 0) << "the key carries a TTL after a completed acquire";
  EXPECT_LE(lease.remaining(), Micros(5000ms));

  AcquireResult busy = run_sync(b->acquire("lock:basic", Micros(20ms)));
  EXPECT_EQ(busy.status, AcquireStatus::busy) << busy.detail;
  EXPECT_GT(busy.attempts, 1u);
  EXPECT_TRUE(busy.refused_at.has_value()) << "its attempts found the lock held";

  admin.command({"PEXPIRE", "lock:basic", "1000"});
  EXPECT_EQ(run_sync(a->renew(lease)), RenewStatus::renewed);
  EXPECT_GT(admin.pttl("lock:basic"), 1000);

  EXPECT_EQ(run_sync(a->release(lease)), ReleaseStatus::released);
  EXPECT_TRUE(lease.lost());
  EXPECT_FALSE(admin.exists("lock:basic"));
  EXPECT_EQ(run_sync(a->renew(lease)), RenewStatus::lost);

  AcquireResult again = run_sync(b->acquire("lock:basic", Micros::zero()));
  ASSERT_EQ(again.status, AcquireStatus::acquired) << again.detail;
  EXPECT_EQ(run_sync(b->release(*again.lease)), ReleaseStatus::released);
}

TEST_P(VariantBasics, ReleaseAfterExpiryOnFreeKeyIsNotOwned) {
  Client client(options_for(server));
  auto lock = make_lock(GetParam(), client.port(), client.clock(), client.entropy(), quick(50ms));
  AcquireResult got = run_sync(lock->acquire("lock:expired", Micros::zero()));
  ASSERT_EQ(got.status, AcquireStatus::acquired) << got.detail;
  std::this_thread::sleep_for(120ms);
  EXPECT_TRUE(got.lease->lost());
  EXPECT_EQ(run_sync(lock->renew(*got.lease)), RenewStatus::lost);
  EXPECT_EQ(run_sync(lock->release(*got.lease)), ReleaseStatus::not_owned);
}

TEST_P(VariantBasics, ErrorReplyIsThrownTyped) {
  Client client(options_for(server));
  Admin admin(server);
  admin.command({"RPUSH", "lock:wrongtype", "x"});
  auto lock = make_lock(GetParam(), client.port(), client.clock(), client.entropy(), quick());
  // Every variant renews with compare-and-pexpire, whose GET meets a list: WRONGTYPE, thrown as RedisError.
  Lease lease{"lock:wrongtype", "some-token", client.clock().monotonic_now(),
              client.clock().monotonic_now() + Micros(1s), 0, false, &client.clock()};
  try {
    run_sync(lock->renew(lease));
    ADD_FAILURE() << "renew on a list must throw";
  } catch (const RedisError& error) {
    EXPECT_NE(std::string(error.what()).find("lock:wrongtype"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("WRONGTYPE"), std::string::npos) << error.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Catalogue, VariantBasics,
                         ::testing::Values("exists-then-set", "setnx-then-expire", "set-nx-ex-del", "thread-id",
                                           "fenced", "get-then-del", "watch-cas", "fair"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

class VariantRedisTest : public ::testing::Test {
 protected:
  testing::RedisServer server;
};

// --- exists-then-set: another client's SET between EXISTS and SET is overwritten -----------------------

TEST_F(VariantRedisTest, ExistsThenSetOverwritesALockTakenBetweenItsTwoCommands) {
  Client client(options_for(server));
  Admin admin(server);
  HookPort port(client.port(), [&](const Command& command) {
    // Another client wins the race right after our EXISTS said "absent".
    if (command[0] == "SET") admin.command({"SET", "lock:race", "other-owner", "NX", "PX", "5000"});
    return HookPort::Action::send;
  });
  broken::ExistsThenSetLock lock(port, client.clock(), client.entropy(), quick());
  AcquireResult got = run_sync(lock.acquire("lock:race", Micros::zero()));
  ASSERT_EQ(got.status, AcquireStatus::acquired) << got.detail;
  EXPECT_EQ(admin.get("lock:race"), got.lease->token) << "our SET overwrote the other owner's token";
}

// --- setnx-then-expire: a crash between SETNX and PEXPIRE leaves a key that never expires ----------------

TEST_F(VariantRedisTest, SetnxThenExpireCrashBetweenCommandsLeavesKeyWithoutTtl) {
  Client crashing(options_for(server)), other(options_for(server));
  Admin admin(server);
  HookPort port(crashing.port(), [](const Command& command) {
    return command[0] == "PEXPIRE" ? HookPort::Action::drop_request : HookPort::Action::send;  // dies here
  });
  broken::SetnxThenExpireLock victim(port, crashing.clock(), crashing.entropy(), quick(50ms));
  AcquireResult got = run_sync(victim.acquire("lock:forever", Micros::zero()));
  ASSERT_EQ(got.status, AcquireStatus::acquired) << "like the articles' code, the grant ignores PEXPIRE's fate";
  EXPECT_EQ(admin.pttl("lock:forever"), -1) << "the key exists without a TTL";

  std::this_thread::sleep_for(150ms);  // three TTLs
  broken::SetnxThenExpireLock waiter(other.port(), other.clock(), other.entropy(), quick(50ms));
  AcquireResult blocked = run_sync(waiter.acquire("lock:forever", Micros(30ms)));
  EXPECT_EQ(blocked.status, AcquireStatus::busy) << "nobody can ever take the lock again";
  EXPECT_EQ(admin.pttl("lock:forever"), -1);
}

TEST_F(VariantRedisTest, SetnxThenExpireSendsTwoCommands) {
  Client client(options_for(server));
  std::vector<std::string> verbs;
  HookPort port(client.port(), [&](const Command& command) {
    verbs.push_back(command[0]);
    return HookPort::Action::send;
  });
  broken::SetnxThenExpireLock lock(port, client.clock(), client.entropy(), quick());
  ASSERT_EQ(run_sync(lock.acquire("lock:two", Micros::zero())).status, AcquireStatus::acquired);
  EXPECT_EQ(verbs, (std::vector<std::string>{"SETNX", "PEXPIRE"}));
}

// --- set-nx-ex-del: plain DEL removes a lock another client took after ours expired ---------------------

TEST_F(VariantRedisTest, SetNxExDelReleaseDeletesAForeignLock) {
  Client late(options_for(server)), next(options_for(server));
  Admin admin(server);
  broken::SetNxExDelLock a(late.port(), late.clock(), late.entropy(), quick(50ms));
  broken::SetNxExDelLock b(next.port(), next.clock(), next.entropy(), quick(5000ms));
  AcquireResult first = run_sync(a.acquire("lock:del", Micros::zero()));
  ASSERT_EQ(first.status, AcquireStatus::acquired);
  std::this_thread::sleep_for(100ms);  // a overruns its TTL
  AcquireResult second = run_sync(b.acquire("lock:del", Micros::zero()));
  ASSERT_EQ(second.status, AcquireStatus::acquired);
  ASSERT_EQ(admin.get("lock:del"), second.lease->token);

  EXPECT_EQ(run_sync(a.release(*first.lease)), ReleaseStatus::released) << "DEL reports the foreign key it deleted";
  EXPECT_FALSE(admin.exists("lock:del")) << "b's lock is gone while b still believes it holds it";
  EXPECT_FALSE(second.lease->lost());
}

// --- get-then-del / watch-cas: the key changes hands between the release's GET and its delete -----------

// Another client takes the key (as after our lease expired) just before `verb` is sent.
HookPort::Hook taken_before(const std::string& verb, Admin& admin, const std::string& key) {
  return [&admin, verb, key](const Command& command) {
    if (command[0] == verb) admin.command({"SET", key, "other-owner", "PX", "5000"});
    return HookPort::Action::send;
  };
}

TEST_F(VariantRedisTest, GetThenDelDeletesALockTakenBetweenGetAndDel) {
  Client client(options_for(server));
  Admin admin(server);
  HookPort port(client.port(), taken_before("DEL", admin, "lock:gtd"));
  broken::GetThenDelLock lock(port, client.clock(), client.entropy(), quick());
  AcquireResult got = run_sync(lock.acquire("lock:gtd", Micros::zero()));
  ASSERT_EQ(got.status, AcquireStatus::acquired) << got.detail;
  EXPECT_EQ(run_sync(lock.release(*got.lease)), ReleaseStatus::released) << "DEL reports the foreign key it deleted";
  EXPECT_FALSE(admin.exists("lock:gtd")) << "the other owner's lock is gone";
}

TEST_F(VariantRedisTest, WatchCasKeepsALockTakenBetweenGetAndExec) {
  for (const char* verb : {"MULTI", "DEL", "EXEC"}) {
    Client client(options_for(server));
    Admin admin(server);
    HookPort port(client.port(), taken_before(verb, admin, "lock:cas"));
    WatchCasLock lock(port, client.clock(), client.entropy(), quick());
    AcquireResult got = run_sync(lock.acquire("lock:cas", Micros::zero()));
    ASSERT_EQ(got.status, AcquireStatus::acquired) << got.detail;
    EXPECT_EQ(run_sync(lock.release(*got.lease)), ReleaseStatus::not_owned) << verb;
    EXPECT_EQ(admin.get("lock:cas"), "other-owner") << "EXEC was aborted by the change under WATCH (" << verb << ")";
    admin.command({"DEL", "lock:cas"});
  }
}

TEST(WatchCas, RefusesAWatchdogSharingItsConnection) {
  EXPECT_NE(watchdog_refusal("watch-cas", false).find("transactions"), std::string::npos);
  EXPECT_EQ(watchdog_refusal("get-then-del", false), "");
}

TEST_F(VariantRedisTest, WatchCasRecoversFromALostReplyInsideTheTransaction) {
  for (const char* verb : {"WATCH", "GET", "MULTI", "DEL", "EXEC"}) {
    Client client(options_for(server));
    Admin admin(server);
    bool lost = false;
    HookPort port(client.port(), [&](const Command& command) {
      if (lost || command[0] != verb) return HookPort::Action::send;
      lost = true;
      return HookPort::Action::lose_reply;
    });
    WatchCasLock lock(port, client.clock(), client.entropy(), quick());
    AcquireResult got = run_sync(lock.acquire("lock:lost", Micros::zero()));
    ASSERT_EQ(got.status, AcquireStatus::acquired) << got.detail;
    EXPECT_EQ(run_sync(lock.release(*got.lease)), ReleaseStatus::released) << verb;
    EXPECT_FALSE(admin.exists("lock:lost")) << verb;
    // The connection is usable afterwards: no transaction left open to swallow commands.
    AcquireResult again = run_sync(lock.acquire("lock:lost", Micros::zero()));
    ASSERT_EQ(again.status, AcquireStatus::acquired) << verb << ": " << again.detail;
    EXPECT_EQ(admin.get("lock:lost"), again.lease->token) << verb;
    EXPECT_EQ(run_sync(lock.renew(*again.lease)), RenewStatus::renewed) << verb;
    EXPECT_EQ(run_sync(lock.release(*again.lease)), ReleaseStatus::released) << verb;
  }
}

// --- thread-id: thread 1 of two processes presents the same token ---------------------------------------

TEST_F(VariantRedisTest, ThreadIdLocksOfTwoProcessesReleaseEachOther) {
  Client process_a(options_for(server)), process_b(options_for(server));
  Admin admin(server);
  broken::ThreadIdLock a(process_a.port(), process_a.clock(), process_a.entropy(), quick(50ms));
  broken::ThreadIdLock b(process_b.port(), process_b.clock(), process_b.entropy(), quick(5000ms));
  AcquireResult first = run_sync(a.acquire("lock:tid", Micros::zero()));
  ASSERT_EQ(first.status, AcquireStatus::acquired);
  EXPECT_EQ(first.lease->token, "thread-1");
  EXPECT_EQ(run_sync(b.acquire("lock:tid", Micros::zero())).status, AcquireStatus::busy) << "SET NX still excludes";

  std::this_thread::sleep_for(100ms);
  AcquireResult second = run_sync(b.acquire("lock:tid", Micros::zero()));
  ASSERT_EQ(second.status, AcquireStatus::acquired);
  EXPECT_EQ(run_sync(a.release(*first.lease)), ReleaseStatus::released)
      << "a's compare-and-delete matches b's identical token";
  EXPECT_FALSE(admin.exists("lock:tid"));
}

TEST_F(VariantRedisTest, ThreadIdRetryAfterLostReplyTakesOverAnotherProcessesLock) {
  Client process_a(options_for(server)), process_b(options_for(server));
  Admin admin(server);
  broken::ThreadIdLock a(process_a.port(), process_a.clock(), process_a.entropy(), quick());
  ASSERT_EQ(run_sync(a.acquire("lock:tid2", Micros::zero())).status, AcquireStatus::acquired);
  // b's SET NX runs (and fails: a holds) but its reply is lost; b's retry recognises "thread-1" as its own.
  bool lost_once = false;
  HookPort port(process_b.port(), [&](const Command& command) {
    if (command[0] == "SET" && !lost_once) {
      lost_once = true;
      return HookPort::Action::lose_reply;
    }
    return HookPort::Action::send;
  });
  broken::ThreadIdLock b(port, process_b.clock(), process_b.entropy(), quick());
  EXPECT_EQ(run_sync(b.acquire("lock:tid2", Micros::zero())).status, AcquireStatus::acquired)
      << "two processes now both hold the lock";
}

TEST_F(VariantRedisTest, ThreadIdDistinctIdsExclude) {
  Client client(options_for(server));
  broken::ThreadIdLock t1(client.port(), client.clock(), client.entropy(), quick(), "thread-1");
  broken::ThreadIdLock t2(client.port(), client.clock(), client.entropy(), quick(), "thread-2");
  AcquireResult got = run_sync(t1.acquire("lock:tid3", Micros::zero()));
  ASSERT_EQ(got.status, AcquireStatus::acquired);
  EXPECT_EQ(run_sync(t2.acquire("lock:tid3", Micros::zero())).status, AcquireStatus::busy);
  EXPECT_THROW(broken::ThreadIdLock(client.port(), client.clock(), client.entropy(), quick(), ""), InvalidArgument);
}

// --- fenced: strictly increasing fencing tokens, recovered after a lost reply ---------------------------

TEST_F(VariantRedisTest, FencedTokensStrictlyIncreaseAcrossClients) {
  Client first(options_for(server)), second(options_for(server));
  Admin admin(server);
  FencedLock a(first.port(), first.clock(), first.entropy(), quick());
  FencedLock b(second.port(), second.clock(), second.entropy(), quick());
  std::int64_t previous = 0;
  for (int round = 0; round < 10; ++round) {
    FencedLock& lock = round % 2 == 0 ? a : b;
    AcquireResult got = run_sync(lock.acquire("lock:fenced", Micros::zero()));
    ASSERT_EQ(got.status, AcquireStatus::acquired) << got.detail;
    EXPECT_GT(got.lease->fencing_token, previous);
    previous = got.lease->fencing_token;
    // A busy attempt hands out no token.
    FencedLock& other = round % 2 == 0 ? b : a;
    EXPECT_EQ(run_sync(other.acquire("lock:fenced", Micros::zero())).status, AcquireStatus::busy);
    EXPECT_EQ(run_sync(lock.release(*got.lease)), ReleaseStatus::released);
  }
  EXPECT_EQ(previous, 10);
  EXPECT_EQ(admin.command({"HGET", FencedLock::fence_key("lock:fenced"), "counter"}).text, "10");
  EXPECT_EQ(admin.pttl(FencedLock::fence_key("lock:fenced")), -1) << "the counter never expires";
}

TEST_F(VariantRedisTest, FencedTokenIncreasesAfterExpiryToo) {
  Client first(options_for(server)), second(options_for(server));
  FencedLock a(first.port(), first.clock(), first.entropy(), quick(50ms));
  FencedLock b(second.port(), second.clock(), second.entropy(), quick());
  AcquireResult old_grant = run_sync(a.acquire("lock:fenced2", Micros::zero()));
  ASSERT_EQ(old_grant.status, AcquireStatus::acquired);
  std::this_thread::sleep_for(100ms);
  AcquireResult new_grant = run_sync(b.acquire("lock:fenced2", Micros::zero()));
  ASSERT_EQ(new_grant.status, AcquireStatus::acquired);
  EXPECT_GT(new_grant.lease->fencing_token, old_grant.lease->fencing_token)
      << "a resource that rejects lower tokens rejects the expired holder's writes";
  EXPECT_EQ(run_sync(a.release(*old_grant.lease)), ReleaseStatus::not_owned);
}

TEST_F(VariantRedisTest, FencedLostReplyRecoversTheSameFencingToken) {
  Client client(options_for(server));
  Admin admin(server);
  bool lost_once = false;
  HookPort port(client.port(), [&](const Command& command) {
    if ((command[0] == "EVALSHA" || command[0] == "EVAL") && !lost_once) {
      lost_once = true;
      return HookPort::Action::lose_reply;  // the acquire script runs, but we never hear its answer
    }
    return HookPort::Action::send;
  });
  FencedLock lock(port, client.clock(), client.entropy(), quick());
  AcquireResult got = run_sync(lock.acquire("lock:fenced3", Micros::zero()));
  ASSERT_EQ(got.status, AcquireStatus::acquired) << got.detail;
  EXPECT_EQ(got.attempts, 2u);
  EXPECT_EQ(admin.get("lock:fenced3"), got.lease->token);
  // Whether the lost call was EVALSHA (script not cached yet: NOSCRIPT, nothing ran) or the script itself,
  // the lease's fencing token is the one recorded for our token, and no token was wasted twice.
  const std::string fence = FencedLock::fence_key("lock:fenced3");
  EXPECT_EQ(admin.command({"HGET", fence, "holder"}).text, got.lease->token);
  EXPECT_EQ(admin.command({"HGET", fence, "holder_fence"}).text, std::to_string(got.lease->fencing_token));
  EXPECT_EQ(got.lease->fencing_token, 1);
}

TEST_F(VariantRedisTest, FencedReclaimAfterLostReplyWhenScriptRan) {
  Client client(options_for(server));
  Admin admin(server);
  {  // Cache the acquire script first so the lost call below is the script itself, which did run.
    FencedLock warm(client.port(), client.clock(), client.entropy(), quick());
    AcquireResult got = run_sync(warm.acquire("lock:warm", Micros::zero()));
    ASSERT_EQ(got.status, AcquireStatus::acquired);
    run_sync(warm.release(*got.lease));
  }
  int evals = 0;
  HookPort port(client.port(), [&](const Command& command) {
    if (command[0] == "EVALSHA" && ++evals == 1) return HookPort::Action::lose_reply;
    return HookPort::Action::send;
  });
  FencedLock lock(port, client.clock(), client.entropy(), quick());
  AcquireResult got = run_sync(lock.acquire("lock:fenced4", Micros::zero()));
  ASSERT_EQ(got.status, AcquireStatus::acquired) << got.detail;
  const std::string fence = FencedLock::fence_key("lock:fenced4");
  EXPECT_EQ(got.lease->fencing_token, 1) << "the reclaim returned the token the lost grant received";
  EXPECT_EQ(admin.command({"HGET", fence, "counter"}).text, "1") << "no second token was handed out";
  EXPECT_EQ(run_sync(lock.release(*got.lease)), ReleaseStatus::released);
}

// A write acquire whose reply was lost is retried; the retry finds our writer field already there and is
// granted. Its lease counts a full TTL from the retry, so the retry must give the key a full TTL too: found by
// lockcheck explore (rw-owned, loss, a writer believed it held the lock 1 s after its key had expired, while a
// reader took it). Here the key is shortened between the two attempts, as time passing would.
TEST_F(VariantRedisTest, RwOwnedWriteRetryAfterALostReplyGivesTheKeyTheTtlItsLeaseCountsOn) {
  Client client(options_for(server));
  Admin admin(server);
  {  // Cache the scripts first, so that the lost call below is the acquire script itself, which ran.
    RwOwnedLock warm(client.port(), client.clock(), client.entropy(), quick());
    AcquireResult got = run_sync(warm.acquire("lock:warm", Micros::zero()));
    ASSERT_EQ(got.status, AcquireStatus::acquired) << got.detail;
    run_sync(warm.release(*got.lease));
  }
  int evals = 0;
  HookPort port(client.port(), [&](const Command& command) {
    if (command[0] != "EVALSHA") return HookPort::Action::send;
    if (++evals == 1) return HookPort::Action::lose_reply;
    if (evals == 2) admin.command({"PEXPIRE", "lock:rw-retry", "1000"});  // 4 s of the 5 s TTL have gone by
    return HookPort::Action::send;
  });
  RwOwnedLock lock(port, client.clock(), client.entropy(), quick(5000ms));
  AcquireResult got = run_sync(lock.acquire("lock:rw-retry", Micros::zero()));
  ASSERT_EQ(got.status, AcquireStatus::acquired) << got.detail;
  EXPECT_EQ(got.attempts, 2u);
  const auto lease_left_ms = std::chrono::duration_cast<Millis>(got.lease->remaining()).count();
  EXPECT_GE(admin.pttl("lock:rw-retry"), lease_left_ms - 100)
      << "the lease believes " << lease_left_ms << " ms are left: the key must not expire before";
  EXPECT_EQ(run_sync(lock.release(*got.lease)), ReleaseStatus::released);
}

// watch-cas releases with WATCH, GET, MULTI, DEL, EXEC. If the connection is replaced between the GET and the
// MULTI (a reconnect, a failover behind the node's address), the transaction opens where nothing is watched
// and the DEL runs whatever the key now holds: found by lockcheck explore (watch-cas, a node restart while a
// releasing holder was paused: its release deleted the next owner's lock). Here another owner takes the key
// while the connection is replaced.
TEST_F(VariantRedisTest, WatchCasNeverDeletesThroughATransactionOpenedOnAnotherConnection) {
  Client client(options_for(server));
  Admin admin(server);
  bool replaced = false;
  HookPort port(client.port(), [&](const Command& command) {
    if (command[0] == "MULTI" && !replaced) {
      replaced = true;
      admin.command({"SET", "lock:wc-reconnect", "another-owner", "PX", "30000"});
      return HookPort::Action::reconnect_first;
    }
    return HookPort::Action::send;
  });
  WatchCasLock lock(port, client.clock(), client.entropy(), quick());
  AcquireResult got = run_sync(lock.acquire("lock:wc-reconnect", Micros::zero()));
  ASSERT_EQ(got.status, AcquireStatus::acquired) << got.detail;
  EXPECT_EQ(run_sync(lock.release(*got.lease)), ReleaseStatus::not_owned);
  EXPECT_EQ(admin.get("lock:wc-reconnect"), "another-owner") << "the other owner's lock was deleted";
}

// --- redisson-semaphore: a counter without owners or leases ------------------------------------------------

// A hook that loses the reply of the next command once `armed` is set, then disarms.
HookPort::Hook lose_next_reply_when(bool& armed) {
  return [&armed](const Command&) {
    if (!armed) return HookPort::Action::send;
    armed = false;
    return HookPort::Action::lose_reply;
  };
}

// Acquires `key`, releases it and acquires it again: after that round the server has the scripts, so EVALSHA
// runs a release at once (a NOSCRIPT whose reply was lost would only be sent again, running nothing).
AcquireResult acquired_after_one_round(LockAlgorithm& lock, const std::string& key) {
  AcquireResult held = run_sync(lock.acquire(key, Micros::zero()));
  if (held.status != AcquireStatus::acquired) return held;
  EXPECT_EQ(run_sync(lock.release(*held.lease)), ReleaseStatus::released);
  return run_sync(lock.acquire(key, Micros::zero()));
}

TEST_F(VariantRedisTest, RedissonSemaphoreLetsInAsManyAsItHasPermitsAndWakesAWaiterOnRelease) {
  Client a(options_for(server)), b(options_for(server)), c(options_for(server));
  broken::RedissonSemaphore first(a.port(), a.clock(), a.entropy(), quick(), 2);
  broken::RedissonSemaphore second(b.port(), b.clock(), b.entropy(), quick(), 2);
  broken::RedissonSemaphore third(c.port(), c.clock(), c.entropy(), quick(), 2);
  AcquireResult one = run_sync(first.acquire("sem:basic", Micros::zero()));
  AcquireResult two = run_sync(second.acquire("sem:basic", Micros::zero()));
  ASSERT_EQ(one.status, AcquireStatus::acquired) << one.detail;
  ASSERT_EQ(two.status, AcquireStatus::acquired) << two.detail;
  EXPECT_EQ(run_sync(third.acquire("sem:basic", Micros::zero())).status, AcquireStatus::busy);
  EXPECT_EQ(Admin(server).get("sem:basic"), "0");
  // A waiter subscribed to the release channel is let in by the release's message (the wait budget is long).
  std::thread releaser([&] {
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(run_sync(first.release(*one.lease)), ReleaseStatus::released);
  });
  AcquireResult waited = run_sync(third.acquire("sem:basic", Micros(Millis(5000))));
  releaser.join();
  EXPECT_EQ(waited.status, AcquireStatus::acquired) << waited.detail;
}

TEST_F(VariantRedisTest, RedissonSemaphoreRetriedReleaseAfterALostReplyReturnsAPermitTwice) {
  Client client(options_for(server)), other(options_for(server));
  bool lose_next_reply = false;
  HookPort port(client.port(), lose_next_reply_when(lose_next_reply));
  broken::RedissonSemaphore holder(port, client.clock(), client.entropy(), quick(), 1);
  broken::RedissonSemaphore rival(other.port(), other.clock(), other.entropy(), quick(), 1);
  AcquireResult held = acquired_after_one_round(holder, "sem:retry");
  ASSERT_EQ(held.status, AcquireStatus::acquired) << held.detail;
  lose_next_reply = true;  // the release's INCRBY runs, its reply is lost, and the release is sent again
  EXPECT_EQ(run_sync(holder.release(*held.lease)), ReleaseStatus::released);
  EXPECT_EQ(Admin(server).get("sem:retry"), "2") << "a one-permit semaphore now has two permits";
  EXPECT_EQ(run_sync(holder.acquire("sem:retry", Micros::zero())).status, AcquireStatus::acquired);
  EXPECT_EQ(run_sync(rival.acquire("sem:retry", Micros::zero())).status, AcquireStatus::acquired)
      << "two holders of one permit";
}

TEST_F(VariantRedisTest, RedissonSemaphoreKeepsADeadHoldersPermitForever) {
  Client dead(options_for(server)), alive(options_for(server));
  broken::RedissonSemaphore crashed(dead.port(), dead.clock(), dead.entropy(), quick(100ms), 1);
  broken::RedissonSemaphore waiter(alive.port(), alive.clock(), alive.entropy(), quick(100ms), 1);
  ASSERT_EQ(run_sync(crashed.acquire("sem:dead", Micros::zero())).status, AcquireStatus::acquired);
  // The holder never releases (it died). The lock's TTL of 100 ms means nothing to the counter.
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(run_sync(waiter.acquire("sem:dead", Micros::zero())).status, AcquireStatus::busy);
  EXPECT_EQ(Admin(server).call({"PTTL", "sem:dead"}).integer, -1) << "nothing ever expires the permit";
  EXPECT_THROW(broken::RedissonSemaphore(alive.port(), alive.clock(), alive.entropy(), quick(), 0), InvalidArgument);
}

// --- semaphore: each permit a lease with an owner, safe to retry --------------------------------------------

// The lost reply that makes redisson-semaphore return a permit twice: here the retry finds its id gone.
TEST_F(VariantRedisTest, SemaphoreRetriedReleaseAfterALostReplyReturnsItsPermitOnce) {
  Client client(options_for(server)), other(options_for(server));
  bool lose_next_reply = false;
  HookPort port(client.port(), lose_next_reply_when(lose_next_reply));
  SemaphoreLock holder(port, client.clock(), client.entropy(), quick(), 1);
  SemaphoreLock rival(other.port(), other.clock(), other.entropy(), quick(), 1);
  AcquireResult held = acquired_after_one_round(holder, "sem:retry");
  ASSERT_EQ(held.status, AcquireStatus::acquired) << held.detail;
  lose_next_reply = true;
  EXPECT_EQ(run_sync(holder.release(*held.lease)), ReleaseStatus::released);
  EXPECT_EQ(run_sync(holder.acquire("sem:retry", Micros::zero())).status, AcquireStatus::acquired);
  EXPECT_EQ(run_sync(rival.acquire("sem:retry", Micros::zero())).status, AcquireStatus::busy)
      << "one permit, one holder";
}

// The lost reply that makes redisson-semaphore take a second permit: here the retry recognises its own id.
TEST_F(VariantRedisTest, SemaphoreRetriedAcquireAfterALostReplyTakesOnePermit) {
  Client client(options_for(server)), other(options_for(server));
  bool lost_once = false;
  HookPort port(client.port(), [&](const Command& command) {
    if (lost_once || command[0] != "EVAL") return HookPort::Action::send;  // the first run sends the source
    lost_once = true;
    return HookPort::Action::lose_reply;
  });
  SemaphoreLock holder(port, client.clock(), client.entropy(), quick(), 2);
  SemaphoreLock rival(other.port(), other.clock(), other.entropy(), quick(), 2);
  AcquireResult held = run_sync(holder.acquire("sem:acquire-retry", Micros::zero()));
  ASSERT_TRUE(lost_once) << "the hook never saw the acquire script";
  ASSERT_EQ(held.status, AcquireStatus::acquired) << held.detail;
  EXPECT_EQ(Admin(server).call({"ZCARD", "sem:acquire-retry"}).integer, 1) << "the retry took a second permit";
  EXPECT_EQ(run_sync(rival.acquire("sem:acquire-retry", Micros::zero())).status, AcquireStatus::acquired);
}

// --- redisson-permit-expirable: permit expiries on the acquiring client's clock -------------------------------

TEST_F(VariantRedisTest, RedissonPermitExpirableClientClockAheadTakesBackALivePermit) {
  Client on_time(options_for(server)), ahead(options_for(server));
  testing::SkewedClock three_seconds_ahead(ahead.clock(), 3000ms);
  broken::RedissonPermitExpirableSemaphore holder(on_time.port(), on_time.clock(), on_time.entropy(), quick(1000ms), 1);
  broken::RedissonPermitExpirableSemaphore skewed(ahead.port(), three_seconds_ahead, ahead.entropy(), quick(1000ms), 1);
  broken::RedissonPermitExpirableSemaphore in_step(ahead.port(), ahead.clock(), ahead.entropy(), quick(1000ms), 1);
  AcquireResult held = run_sync(holder.acquire("sem:pe", Micros::zero()));
  ASSERT_EQ(held.status, AcquireStatus::acquired) << held.detail;
  EXPECT_EQ(run_sync(in_step.acquire("sem:pe", Micros::zero())).status, AcquireStatus::busy);
  // The holder's permit expires 1 s from now by ITS clock, which the skewed client reads as 2 s ago.
  AcquireResult second = run_sync(skewed.acquire("sem:pe", Micros::zero()));
  EXPECT_EQ(second.status, AcquireStatus::acquired) << "a live permit taken back by a clock 3 s ahead";
  EXPECT_FALSE(held.lease->lost()) << "the first holder still believes it holds: two holders of one permit";
  EXPECT_EQ(run_sync(holder.release(*held.lease)), ReleaseStatus::not_owned);
}

TEST_F(VariantRedisTest, RedissonPermitExpirableReleaseIsSafeToRetry) {
  Client client(options_for(server)), other(options_for(server));
  bool lose_next_reply = false;
  HookPort port(client.port(), lose_next_reply_when(lose_next_reply));
  broken::RedissonPermitExpirableSemaphore holder(port, client.clock(), client.entropy(), quick(), 1);
  broken::RedissonPermitExpirableSemaphore rival(other.port(), other.clock(), other.entropy(), quick(), 1);
  AcquireResult held = acquired_after_one_round(holder, "sem:pe-retry");
  ASSERT_EQ(held.status, AcquireStatus::acquired) << held.detail;
  lose_next_reply = true;
  EXPECT_EQ(run_sync(holder.release(*held.lease)), ReleaseStatus::released);
  EXPECT_EQ(Admin(server).get("sem:pe-retry"), "1") << "the retried release found its id gone and counted nothing";
  EXPECT_EQ(run_sync(holder.acquire("sem:pe-retry", Micros::zero())).status, AcquireStatus::acquired);
  EXPECT_EQ(run_sync(rival.acquire("sem:pe-retry", Micros::zero())).status, AcquireStatus::busy);
}

// --- redisson-like-retries and redisson-fenced: Redisson's acquire re-sent after a lost reply -------------------

// The hold count of one acquire, after the acquire's reply is lost once (its script ran) and it is sent again.
struct RetriedAcquire {
  std::string count_after_acquire;  // HGET <key> <owner>
  std::string count_after_release;  // "" when the release deleted the key
  std::int64_t fencing_token = 0;
};

RetriedAcquire acquire_with_one_lost_reply(testing::RedisServer& server, const std::string& variant, const std::string& key) {
  Client client(options_for(server));
  ThreadSpawner spawner;
  VariantParams params;
  params.spawner = &spawner;
  bool lose_next_reply = false;
  HookPort port(client.port(), lose_next_reply_when(lose_next_reply));
  auto lock = make_lock(variant, port, client.clock(), client.entropy(), quick(), params);
  AcquireResult warm = acquired_after_one_round(*lock, key);  // the server has the scripts: EVALSHA runs at once
  EXPECT_EQ(warm.status, AcquireStatus::acquired) << warm.detail;
  if (warm.lease) {
    EXPECT_EQ(run_sync(lock->release(*warm.lease)), ReleaseStatus::released);
  }
  lose_next_reply = true;  // the acquire script runs, its reply is lost, and the acquire is sent again
  AcquireResult got = run_sync(lock->acquire(key, Micros(Millis(2000))));
  EXPECT_EQ(got.status, AcquireStatus::acquired) << got.detail;
  EXPECT_EQ(got.attempts, 2u);
  RetriedAcquire out;
  if (!got.lease) return out;
  Admin admin(server);
  out.count_after_acquire = admin.command({"HGET", key, got.lease->token}).text;
  out.fencing_token = got.lease->fencing_token;
  EXPECT_EQ(run_sync(lock->release(*got.lease)), ReleaseStatus::released);
  out.count_after_release = admin.command({"HGET", key, got.lease->token}).text;
  return out;
}

TEST_F(VariantRedisTest, RedissonLikeRetriesCountsAReSentAcquireTwiceAndItsReleaseLeavesTheLockHeld) {
  const RetriedAcquire retried = acquire_with_one_lost_reply(server, "redisson-like-retries", "lock:retries");
  EXPECT_EQ(retried.count_after_acquire, "2") << "one acquire, two holds (redisson #4822)";
  EXPECT_EQ(retried.count_after_release, "1") << "released, yet the hash still counts a hold of the owner's";
  Admin admin(server);
  EXPECT_GT(admin.pttl("lock:retries"), 0) << "held until its TTL runs out";
  Client rival_client(options_for(server));
  ThreadSpawner spawner;
  broken::RedissonLikeRetriesLock rival(rival_client.port(), rival_client.clock(), rival_client.entropy(), quick(),
                                        spawner, WatchdogOptions{});
  EXPECT_EQ(run_sync(rival.acquire("lock:retries", Micros::zero())).status, AcquireStatus::busy)
      << "nobody else gets the lock its owner released";
}

// The same lost reply with redisson-like: the request record makes the re-sent acquire count nothing again.
TEST_F(VariantRedisTest, RedissonLikeCountsAReSentAcquireOnce) {
  const RetriedAcquire retried = acquire_with_one_lost_reply(server, "redisson-like", "lock:recorded");
  EXPECT_EQ(retried.count_after_acquire, "1");
  EXPECT_EQ(retried.count_after_release, "");
  EXPECT_FALSE(Admin(server).exists("lock:recorded")) << "the owner's release deleted the lock";
}

TEST_F(VariantRedisTest, RedissonFencedReSentAcquireCountsTwiceAndTakesASecondToken) {
  const RetriedAcquire retried = acquire_with_one_lost_reply(server, "redisson-fenced", "lock:rfenced");
  // Tokens 1 and 2 went to the warm-up round; the lost run took 3 and the re-sent one 4.
  EXPECT_EQ(retried.fencing_token, 4);
  EXPECT_EQ(retried.count_after_acquire, "2");
  EXPECT_EQ(retried.count_after_release, "1");
}

// Every acquisition, a reentrant one too, takes the next token; the counter outlives every lock (#6510: a key
// per lock name, kept for good).
TEST_F(VariantRedisTest, RedissonFencedTokensIncreaseAndEachLockNameKeepsItsCounterForGood) {
  Client client(options_for(server));
  ThreadSpawner spawner;
  broken::RedissonFencedLock lock(client.port(), client.clock(), client.entropy(), quick(), spawner, WatchdogOptions{});
  Admin admin(server);
  AcquireResult outer = run_sync(lock.acquire("lock:rf:a", Micros::zero()));
  ASSERT_EQ(outer.status, AcquireStatus::acquired) << outer.detail;
  AcquireResult inner = run_sync(lock.acquire("lock:rf:a", Micros::zero()));
  ASSERT_EQ(inner.status, AcquireStatus::acquired) << inner.detail;
  EXPECT_EQ(outer.lease->fencing_token, 1);
  EXPECT_EQ(inner.lease->fencing_token, 2) << "a reentrant acquisition takes a token of its own";
  EXPECT_EQ(run_sync(lock.release(*inner.lease)), ReleaseStatus::released);
  EXPECT_EQ(run_sync(lock.release(*outer.lease)), ReleaseStatus::released);
  EXPECT_FALSE(admin.exists("lock:rf:a"));
  for (const char* name : {"lock:rf:b", "lock:rf:c"}) {
    AcquireResult got = run_sync(lock.acquire(name, Micros::zero()));
    ASSERT_EQ(got.status, AcquireStatus::acquired) << got.detail;
    EXPECT_EQ(got.lease->fencing_token, 1) << "one counter per lock name";
    EXPECT_EQ(run_sync(lock.release(*got.lease)), ReleaseStatus::released);
  }
  for (const char* name : {"lock:rf:a", "lock:rf:b", "lock:rf:c"}) {
    const std::string counter = broken::RedissonFencedLock::token_key(name);
    EXPECT_TRUE(admin.exists(counter)) << counter << " outlives its lock";
    EXPECT_EQ(admin.pttl(counter), -1) << counter << " never expires";
  }
}

}  // namespace
}  // namespace lockcheck
