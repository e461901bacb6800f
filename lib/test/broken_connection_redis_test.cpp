// The library under broken connections, against real redis-server processes this test pauses (SIGSTOP),
// kills or slows down (DEBUG SLEEP). Every call must return or throw within a bound computed from its
// timeouts and retry budget, and no lock key may be left that neither a token holder can delete nor its TTL
// will expire. The bounds are loose on purpose (CI machines are slow); what they catch is a call that waits
// for the server instead of for its timeout.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "hiredis_client.hpp"
#include "lock_testing.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/mutex.hpp"
#include "lockcheck/variants/redlock.hpp"
#include "redis_server.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;
using Admin = testing::HiredisClient;
using SteadyClock = std::chrono::steady_clock;

constexpr Millis kConnectTimeout = 200ms;
constexpr Millis kCommandTimeout = 200ms;
constexpr Millis kTtl = 3000ms;

ConnectionOptions fast_failing(const testing::RedisServer& server) {
  ConnectionOptions options = testing::options_for(server);
  options.connect_timeout = kConnectTimeout;
  options.command_timeout = kCommandTimeout;
  return options;
}

MutexOptions bounded_options() {
  MutexOptions options = testing::quick_mutex_options(kTtl, 1000ms);
  options.on_release_problem = [](const std::string&) {};
  return options;
}

// The longest a single lock call may take when every request times out: its wait budget, then one round
// per attempt the retry policy allows after the budget (lost replies, then the token cleanup), each round
// a reconnect plus a command timeout, plus the retry pauses.
Millis worst_case(Millis wait, const RetryPolicy& retry) {
  const auto rounds = 1 + retry.unknown_outcome_attempts + retry.idempotent_attempts;
  const Millis per_round = kConnectTimeout + kCommandTimeout + std::chrono::duration_cast<Millis>(retry.delay_max);
  return wait + per_round * rounds;
}

// Redlock: each attempt is one fan-out to every node plus up to idempotent_attempts release rounds (each an
// EVALSHA and, after NOSCRIPT, an EVAL); a fan-out connects to the nodes one after another, then waits for
// all their replies at once, at most one command timeout.
Millis redlock_worst_case(Millis wait, const RetryPolicy& retry, std::size_t nodes) {
  const auto fan_outs = 1 + 2 * retry.idempotent_attempts;
  const Millis per_fan_out = kConnectTimeout * static_cast<long>(nodes) + kCommandTimeout;
  return wait + per_fan_out * fan_outs + std::chrono::duration_cast<Millis>(retry.delay_max) * fan_outs;
}

// Runs `call` and returns how long it took; any exception is swallowed (the tests judge time and state).
Millis time_of(const std::function<void()>& call) {
  const auto start = SteadyClock::now();
  try {
    call();
  } catch (const Error&) {
    // ConnectionError, UnknownOutcome, LockTimeout: all honest answers to a frozen server.
  }
  return std::chrono::duration_cast<Millis>(SteadyClock::now() - start);
}

// Twice the computed bound plus a second: wide for a loaded machine, far below "blocked until resumed".
void expect_within(Millis took, Millis bound, const char* what) {
  EXPECT_LE(took, bound * 2 + 1000ms) << what << " took " << took.count() << " ms; computed bound " << bound.count()
                                      << " ms";
}

// Every key the locks left behind either is gone or expires by itself within the TTL.
void expect_no_immortal_lock(testing::RedisServer& server, const std::string& key) {
  Admin admin(server);
  const std::int64_t pttl = admin.pttl(key);
  EXPECT_TRUE(pttl == -2 || (pttl > 0 && pttl <= kTtl.count())) << key << " PTTL " << pttl;
}

class BrokenConnection : public ::testing::Test {
 protected:
  testing::RedisServer server{std::vector<std::string>{"--enable-debug-command", "yes"}};
};

TEST_F(BrokenConnection, AcquireOnAPausedServerEndsWithinItsBound) {
  Client client(fast_failing(server));
  Mutex mutex(client, "lock:paused-acquire", bounded_options());
  server.pause();
  const MutexOptions options = bounded_options();
  const Millis try_lock_took = time_of([&] { EXPECT_FALSE(mutex.try_lock()); });
  expect_within(try_lock_took, worst_case(0ms, options.lock.retry), "try_lock");
  const Millis lock_took = time_of([&] { mutex.lock(); });
  expect_within(lock_took, worst_case(std::chrono::duration_cast<Millis>(options.lock_wait), options.lock.retry), "lock");
  const Millis timed_took = time_of([&] { EXPECT_FALSE(mutex.try_lock_for(300ms)); });
  expect_within(timed_took, worst_case(300ms, options.lock.retry), "try_lock_for");
  server.resume();
  // The queued SETs run on resume; whatever they left carries our TTL.
  std::this_thread::sleep_for(100ms);
  expect_no_immortal_lock(server, "lock:paused-acquire");
  // And the lock works again once the server does.
  EXPECT_NO_THROW({
    if (mutex.try_lock_for(std::chrono::duration_cast<Millis>(kTtl) + 1000ms)) mutex.unlock();
  });
}

TEST_F(BrokenConnection, ReleaseAndRenewOnAPausedServerEndWithinTheirBound) {
  Client client(fast_failing(server));
  Mutex mutex(client, "lock:paused-holder", bounded_options());
  std::optional<Lease> lease = mutex.try_acquire(0ms);
  ASSERT_TRUE(lease);
  const RetryPolicy retry = bounded_options().lock.retry;
  server.pause();
  RenewStatus renewed = RenewStatus::renewed;
  expect_within(time_of([&] { renewed = mutex.renew(*lease); }), worst_case(0ms, retry), "renew");
  EXPECT_EQ(renewed, RenewStatus::unknown);
  ReleaseStatus released = ReleaseStatus::released;
  expect_within(time_of([&] { released = mutex.release(*lease); }), worst_case(0ms, retry), "release");
  EXPECT_EQ(released, ReleaseStatus::unknown);
  server.resume();
  std::this_thread::sleep_for(100ms);
  expect_no_immortal_lock(server, "lock:paused-holder");
}

// The watchdog's lost-lock signal: with the server frozen, renewals time out; once the validity they could not
// extend has run out the loop stops, lost() turns true and on_lost fires — within the TTL plus a renewal
// round's worst case, not when the server comes back. unlock() afterwards reports, never hangs.
TEST_F(BrokenConnection, WatchdogSignalsTheLossWhenRenewalCannotReachRedis) {
  Client client(fast_failing(server));
  MutexOptions options = bounded_options();
  std::atomic<int> lost_calls{0};
  options.watchdog = WatchdogOptions{.on_lost = [&](const std::string& key) {
    EXPECT_EQ(key, "lock:paused-watchdog");
    lost_calls.fetch_add(1);
  }};
  Mutex mutex(client, "lock:paused-watchdog", options);
  mutex.lock();
  server.pause();
  const Millis bound = kTtl + worst_case(0ms, options.lock.retry);
  const auto paused_at = SteadyClock::now();
  for (int poll = 0; poll < 1000 && lost_calls.load() == 0 && SteadyClock::now() - paused_at < bound * 2 + 1000ms; ++poll) {
    std::this_thread::sleep_for(20ms);
  }
  const auto took = std::chrono::duration_cast<Millis>(SteadyClock::now() - paused_at);
  EXPECT_EQ(lost_calls.load(), 1) << "no lost-lock signal " << took.count() << " ms after the server froze";
  EXPECT_TRUE(mutex.lost());
  expect_within(time_of([&] { mutex.unlock(); }), worst_case(0ms, options.lock.retry), "unlock");
  server.resume();
  std::this_thread::sleep_for(100ms);
  expect_no_immortal_lock(server, "lock:paused-watchdog");
}

TEST_F(BrokenConnection, GuardAndUnlockDoNotHangOnAPausedServer) {
  Client client(fast_failing(server));
  Mutex mutex(client, "lock:paused-guard", bounded_options());
  const RetryPolicy retry = bounded_options().lock.retry;
  {
    std::unique_lock hold(mutex);
    server.pause();
    const auto start = SteadyClock::now();
    hold.unlock();  // noexcept: reports the problem, returns
    expect_within(std::chrono::duration_cast<Millis>(SteadyClock::now() - start), worst_case(0ms, retry), "unlock");
  }
  server.resume();
  // The lost release left the first key to its TTL; the guard takes another.
  Mutex other(client, "lock:paused-guard-2", bounded_options());
  std::optional<Guard> guard;
  ASSERT_NO_THROW(guard.emplace(other.guard()));
  server.pause();
  const auto start = SteadyClock::now();
  guard.reset();  // the destructor releases: bounded, never throws
  expect_within(std::chrono::duration_cast<Millis>(SteadyClock::now() - start), worst_case(0ms, retry), "~Guard");
  server.resume();
  std::this_thread::sleep_for(100ms);
  expect_no_immortal_lock(server, "lock:paused-guard");
  expect_no_immortal_lock(server, "lock:paused-guard-2");
}

TEST_F(BrokenConnection, AKilledServerFailsFastAndARestartedOneWorks) {
  Client client(fast_failing(server));
  Mutex mutex(client, "lock:killed-server", bounded_options());
  ASSERT_TRUE(mutex.try_lock());
  server.kill();
  const RetryPolicy retry = bounded_options().lock.retry;
  expect_within(time_of([&] { mutex.unlock(); }), worst_case(0ms, retry), "unlock on a dead server");
  expect_within(time_of([&] { EXPECT_THROW(mutex.try_lock(), ConnectionError); }), worst_case(0ms, retry),
                "try_lock on a dead server");
  server.restart();
  EXPECT_TRUE(mutex.try_lock());
  mutex.unlock();
}

TEST_F(BrokenConnection, SlowRepliesPastTheTimeoutEndWithinTheBound) {
  Client client(fast_failing(server));
  Mutex mutex(client, "lock:slow-replies", bounded_options());
  std::thread freezer([&] {
    Admin admin(server);
    admin.command({"DEBUG", "SLEEP", "2"});
  });
  std::this_thread::sleep_for(100ms);  // let DEBUG SLEEP start
  const RetryPolicy retry = bounded_options().lock.retry;
  expect_within(time_of([&] { (void)mutex.try_lock_for(200ms); }), worst_case(200ms, retry), "try_lock_for");
  freezer.join();
  std::this_thread::sleep_for(100ms);
  expect_no_immortal_lock(server, "lock:slow-replies");
  if (mutex.lease()) mutex.unlock();
}

// Redlock over three servers: one paused leaves a quorum; two paused must fail within the bound.
class BrokenRedlock : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int i = 0; i < 3; ++i) servers.push_back(std::make_unique<testing::RedisServer>());
  }
  std::vector<ConnectionOptions> nodes() const {
    std::vector<ConnectionOptions> out;
    for (const auto& server : servers) out.push_back(fast_failing(*server));
    return out;
  }
  void TearDown() override {
    for (auto& server : servers) server->resume();
  }
  std::vector<std::unique_ptr<testing::RedisServer>> servers;
};

TEST_F(BrokenRedlock, OnePausedNodeLeavesAQuorumTwoFailWithinTheBound) {
  Client client(nodes());
  const LockOptions options = testing::quick_lock_options(kTtl);
  Redlock lock(client.port(), client.clock(), client.entropy(), options);
  servers[0]->pause();
  AcquireResult acquired;
  const Millis one_paused = time_of([&] { acquired = run_sync(lock.acquire("lock:redlock-paused", 0ms)); });
  expect_within(one_paused, redlock_worst_case(0ms, options.retry, 3), "acquire with one paused node");
  ASSERT_EQ(acquired.status, AcquireStatus::acquired) << acquired.detail;
  ReleaseStatus released = ReleaseStatus::unknown;
  expect_within(time_of([&] { released = run_sync(lock.release(*acquired.lease)); }),
                redlock_worst_case(0ms, options.retry, 3), "release with one paused node");

  servers[1]->pause();
  AcquireResult denied;
  const Millis two_paused = time_of([&] { denied = run_sync(lock.acquire("lock:redlock-paused", 500ms)); });
  expect_within(two_paused, redlock_worst_case(500ms, options.retry, 3), "acquire with two paused nodes");
  EXPECT_NE(denied.status, AcquireStatus::acquired);
  for (auto& server : servers) server->resume();
  std::this_thread::sleep_for(100ms);
  for (auto& server : servers) expect_no_immortal_lock(*server, "lock:redlock-paused");
}

// A fan-out waits for its nodes at once: two silent nodes cost one command timeout, not two (reading them in
// turn restarted the socket timeout at each), and the node that answers is not held up by them.
TEST_F(BrokenRedlock, SilentNodesCostOneCommandTimeoutNotOneEach) {
  constexpr Millis kSlowTimeout = 500ms;
  std::vector<ConnectionOptions> options = nodes();
  for (auto& node : options) node.command_timeout = kSlowTimeout;
  Client client(options);
  auto ping_all = [&] {
    std::vector<NodeCommand> pings;
    for (std::size_t node = 0; node < options.size(); ++node) pings.push_back(NodeCommand{node, {"PING"}});
    return run_sync(client.port().fan_out(std::move(pings)));
  };
  ASSERT_EQ(ping_all().size(), 3u);  // connected while every node is up
  servers[0]->pause();
  servers[1]->pause();
  std::vector<CallResult> results;
  const Millis took = time_of([&] { results = ping_all(); });
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].status, CallStatus::unknown);
  EXPECT_EQ(results[1].status, CallStatus::unknown);
  ASSERT_TRUE(results[2].replied()) << results[2].detail;
  EXPECT_EQ(results[2].reply.text, "PONG");
  EXPECT_GE(took, kSlowTimeout - 50ms) << "the silent nodes were given up before their timeout";
  EXPECT_LT(took, 2 * kSlowTimeout - 100ms) << "the silent nodes' timeouts ran one after another";
  for (auto& server : servers) server->resume();
  std::vector<CallResult> after = ping_all();  // the dropped connections come back
  for (const CallResult& result : after) EXPECT_TRUE(result.replied()) << result.detail;
}

// Acquisition stops waiting once the quorum is decided: a paused node with a long command timeout must not
// hold up an acquire that two nodes granted in one round trip. Its late grant is undone by the release.
constexpr Millis kLongCommandTimeout = 2000ms;
constexpr Millis kQuorumDecidedWithin = 1000ms;  // one loopback round trip, with a wide margin for CI

std::vector<ConnectionOptions> with_command_timeout(std::vector<ConnectionOptions> nodes, Millis timeout) {
  for (auto& node : nodes) node.command_timeout = timeout;
  return nodes;
}

std::vector<CallResult> ping_all(Client& client) {
  std::vector<NodeCommand> pings;
  for (std::size_t node = 0; node < client.port().node_count(); ++node) pings.push_back(NodeCommand{node, {"PING"}});
  return run_sync(client.port().fan_out(std::move(pings)));
}

// Release rounds reach the paused node each with a reconnect and a full command timeout.
Millis release_bound(const RetryPolicy& retry, std::size_t nodes) {
  const auto fan_outs = 2 * retry.idempotent_attempts;
  const Millis per_fan_out = kConnectTimeout * static_cast<long>(nodes) + kLongCommandTimeout;
  return (per_fan_out + std::chrono::duration_cast<Millis>(retry.delay_max)) * fan_outs;
}

TEST_F(BrokenRedlock, AcquireWithOnePausedNodeReturnsOnceTheQuorumGranted) {
  Client client(with_command_timeout(nodes(), kLongCommandTimeout));
  LockOptions options = testing::quick_lock_options(kTtl);
  options.retry.idempotent_attempts = 1;  // one release round on the paused node: 2 s, not 6 (CI time)
  Redlock lock(client.port(), client.clock(), client.entropy(), options);
  ASSERT_EQ(ping_all(client).size(), 3u);  // connected while every node is up
  servers[0]->pause();
  AcquireResult acquired;
  const Millis took = time_of([&] { acquired = run_sync(lock.acquire("lock:redlock-quorum", 0ms)); });
  EXPECT_LT(took, kQuorumDecidedWithin) << "the acquire waited for the paused node";
  ASSERT_EQ(acquired.status, AcquireStatus::acquired) << acquired.detail;
  expect_within(time_of([&] { (void)run_sync(lock.release(*acquired.lease)); }), release_bound(options.retry, 3),
                "release with one paused node");
  for (auto& server : servers) server->resume();
  std::this_thread::sleep_for(100ms);
  for (auto& server : servers) expect_no_immortal_lock(*server, "lock:redlock-quorum");
}

// The replies an early return left unread are skipped before the connection's next reply, so later calls
// on it get their own reply, not a stale one.
TEST_F(BrokenRedlock, RepliesNotAwaitedAreSkippedBeforeTheNextCommand) {
  Client client(with_command_timeout(nodes(), kLongCommandTimeout));
  const LockOptions options = testing::quick_lock_options(kTtl);
  Redlock lock(client.port(), client.clock(), client.entropy(), options);
  ASSERT_EQ(ping_all(client).size(), 3u);
  servers[0]->pause();
  AcquireResult first, second;
  const Millis took = time_of([&] {
    first = run_sync(lock.acquire("lock:redlock-owed-1", 0ms));
    second = run_sync(lock.acquire("lock:redlock-owed-2", 0ms));
  });
  EXPECT_LT(took, 2 * kQuorumDecidedWithin) << "an acquire waited for the paused node";
  ASSERT_EQ(first.status, AcquireStatus::acquired) << first.detail;
  ASSERT_EQ(second.status, AcquireStatus::acquired) << second.detail;
  servers[0]->resume();  // the two late SETs run now; their replies are still owed on node 0's connection
  const std::vector<CallResult> pongs = ping_all(client);
  for (const CallResult& pong : pongs) {
    ASSERT_TRUE(pong.replied()) << pong.detail;
    EXPECT_EQ(pong.reply.text, "PONG");
  }
  const CallResult held = run_sync(client.port().call(0, Command{"GET", "lock:redlock-owed-2"}));
  ASSERT_TRUE(held.replied()) << held.detail;
  EXPECT_EQ(held.reply.text, second.lease->token);  // the late grant landed, and a release will undo it
  EXPECT_EQ(run_sync(lock.release(*first.lease)), ReleaseStatus::released);
  EXPECT_EQ(run_sync(lock.release(*second.lease)), ReleaseStatus::released);
  for (auto& server : servers) {
    Admin admin(*server);
    EXPECT_EQ(admin.pttl("lock:redlock-owed-1"), -2);
    EXPECT_EQ(admin.pttl("lock:redlock-owed-2"), -2);
  }
}

// fan_out_until with a caller's own rule ("the first answer decides"): it returns on the answer of a live
// node, reports the paused one as not awaited (unknown), and that connection's owed reply is skipped later.
TEST_F(BrokenRedlock, FanOutUntilReturnsWhenTheCallersRuleIsMet) {
  Client client(with_command_timeout(nodes(), kLongCommandTimeout));
  ASSERT_EQ(ping_all(client).size(), 3u);
  servers[0]->pause();
  std::vector<NodeCommand> echoes;
  for (std::size_t node = 0; node < 3; ++node) echoes.push_back(NodeCommand{node, {"ECHO", std::to_string(node)}});
  DecidedPredicate first_answer = [](const SettledResults& settled) {
    return std::any_of(settled.begin(), settled.end(), [](const auto& result) { return result && result->replied(); });
  };
  std::vector<CallResult> results;
  const Millis took = time_of([&] { results = run_sync(client.port().fan_out_until(echoes, first_answer)); });
  EXPECT_LT(took, kQuorumDecidedWithin) << "fan_out_until waited for the paused node";
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].status, CallStatus::unknown);
  EXPECT_EQ(results[0].detail, kNotAwaited);
  const bool a_live_node_answered = (results[1].replied() && results[1].reply.text == "1") ||
                                    (results[2].replied() && results[2].reply.text == "2");
  EXPECT_TRUE(a_live_node_answered);
  servers[0]->resume();
  const CallResult own = run_sync(client.port().call(0, Command{"ECHO", "after"}));
  ASSERT_TRUE(own.replied()) << own.detail;
  EXPECT_EQ(own.reply.text, "after");  // not the owed "0"
}

// Renewal, like acquisition, returns once a quorum extended: one paused node does not stall it.
TEST_F(BrokenRedlock, RenewWithOnePausedNodeReturnsOnceTheQuorumExtended) {
  Client client(with_command_timeout(nodes(), kLongCommandTimeout));
  LockOptions options = testing::quick_lock_options(kTtl);
  options.retry.idempotent_attempts = 1;  // one release round on the paused node (CI time)
  Redlock lock(client.port(), client.clock(), client.entropy(), options);
  AcquireResult acquired = run_sync(lock.acquire("lock:redlock-renew", 0ms));  // every node up
  ASSERT_EQ(acquired.status, AcquireStatus::acquired) << acquired.detail;
  // Every node caches the renew script now: a NOSCRIPT reply is no answer yet (its EVAL follows), so a
  // first renewal on fresh servers still waits for the paused node.
  ASSERT_EQ(run_sync(lock.renew(*acquired.lease)), RenewStatus::renewed);
  const MonoTime validity_before = acquired.lease->valid_until;
  servers[0]->pause();
  RenewStatus renewed = RenewStatus::unknown;
  const Millis took = time_of([&] { renewed = run_sync(lock.renew(*acquired.lease)); });
  EXPECT_LT(took, kQuorumDecidedWithin) << "the renewal waited for the paused node";
  EXPECT_EQ(renewed, RenewStatus::renewed);
  EXPECT_GT(acquired.lease->valid_until, validity_before);
  expect_within(time_of([&] { (void)run_sync(lock.release(*acquired.lease)); }), release_bound(options.retry, 3),
                "release with one paused node");
  for (auto& server : servers) server->resume();
  std::this_thread::sleep_for(100ms);
  for (auto& server : servers) expect_no_immortal_lock(*server, "lock:redlock-renew");
}

}  // namespace
}  // namespace lockcheck
