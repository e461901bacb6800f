// The `token` lock through lockcheck::Mutex against a real redis-server this test starts on a free port.
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "lockcheck/errors.hpp"
#include "lockcheck/mutex.hpp"
#include "hiredis_client.hpp"
#include "lock_testing.hpp"
#include "redis_server.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;

using Admin = testing::HiredisClient;

using testing::options_for;

MutexOptions quick_options(Millis ttl = 5000ms) {
  MutexOptions options;
  options.lock.ttl = ttl;
  options.lock.retry.delay_min = Micros(200);
  options.lock.retry.delay_max = Micros(5000);
  options.lock_wait = 30s;
  return options;
}

// Read-modify-write of a counter in Redis: loses updates unless the lock excludes.
void increment_unsafely(Admin& admin, const std::string& counter) {
  const std::string value = admin.get(counter);
  const long next = (value.empty() ? 0 : std::stol(value)) + 1;
  admin.command({"SET", counter, std::to_string(next)});
}

class MutexRedisTest : public ::testing::Test {
 protected:
  testing::RedisServer server;
};

TEST_F(MutexRedisTest, LockAndUnlockWorkWithStandardGuards) {
  Client client(options_for(server));
  Mutex mutex(client, "lock:std", quick_options());
  Admin admin(server);
  {
    std::lock_guard hold(mutex);
    EXPECT_FALSE(mutex.lost());
    EXPECT_EQ(admin.get("lock:std"), mutex.lease()->token);
    EXPECT_EQ(mutex.lease()->token.size(), 32u);
  }
  EXPECT_EQ(admin.command({"EXISTS", "lock:std"}).integer, 0);
  {
    std::unique_lock hold(mutex, std::defer_lock);
    EXPECT_TRUE(hold.try_lock_for(100ms));
    EXPECT_GT(admin.command({"PTTL", "lock:std"}).integer, 0) << "a lock key always carries a TTL";
  }
  std::unique_lock hold(mutex, std::defer_lock);
  EXPECT_TRUE(hold.try_lock_until(std::chrono::steady_clock::now() + 100ms));
}

TEST_F(MutexRedisTest, TryLockFailsWhileAnotherOwnerHolds) {
  Client first(options_for(server)), second(options_for(server));
  Mutex a(first, "lock:busy", quick_options()), b(second, "lock:busy", quick_options());
  ASSERT_TRUE(a.try_lock());
  EXPECT_FALSE(b.try_lock());
  const auto before = std::chrono::steady_clock::now();
  EXPECT_FALSE(b.try_lock_for(150ms));
  EXPECT_GE(std::chrono::steady_clock::now() - before, 140ms);
  a.unlock();
  EXPECT_TRUE(b.try_lock());
  b.unlock();
}

// A Mutex is not reentrant: the thread that holds it locking it again is a bug, reported at once instead of
// waiting out its budget for itself.
TEST_F(MutexRedisTest, LockingAgainFromTheHoldingThreadThrows) {
  Client client(options_for(server));
  Mutex mutex(client, "lock:again", quick_options());
  mutex.lock();
  EXPECT_THROW(mutex.lock(), InvalidArgument);
  EXPECT_THROW((void)mutex.try_lock(), InvalidArgument);
  EXPECT_THROW((void)mutex.try_lock_for(10ms), InvalidArgument);
  EXPECT_FALSE(mutex.lost()) << "the failed relock leaves the hold as it was";
  mutex.unlock();
  EXPECT_TRUE(mutex.try_lock());
  mutex.unlock();
}

// `iterations` critical sections, each a read-modify-write of `counter` under `mutex`.
void increment_under_lock(Mutex& mutex, const testing::RedisServer& server, const std::string& counter, int iterations) {
  Admin admin(server);
  for (int i = 0; i < iterations; ++i) {
    std::lock_guard hold(mutex);
    increment_unsafely(admin, counter);
  }
}

template <typename Body>
void run_threads(int count, Body body) {
  std::vector<std::thread> threads;
  for (int t = 0; t < count; ++t) threads.emplace_back(body);
  for (auto& thread : threads) thread.join();
}

TEST_F(MutexRedisTest, ThreadsExcludeEachOther) {
  constexpr int kThreads = 4, kIterations = 40;
  run_threads(kThreads, [&] {
    Client client(options_for(server));
    Mutex mutex(client, "lock:threads", quick_options());
    increment_under_lock(mutex, server, "counter:threads", kIterations);
  });
  Admin admin(server);
  EXPECT_EQ(admin.get("counter:threads"), std::to_string(kThreads * kIterations));
}

TEST_F(MutexRedisTest, ThreadsSharingOneMutexExcludeEachOther) {
  Client client(options_for(server));
  Mutex mutex(client, "lock:shared", quick_options());
  constexpr int kThreads = 3, kIterations = 30;
  run_threads(kThreads, [&] { increment_under_lock(mutex, server, "counter:shared", kIterations); });
  Admin admin(server);
  EXPECT_EQ(admin.get("counter:shared"), std::to_string(kThreads * kIterations));
}

TEST_F(MutexRedisTest, ProcessesExcludeEachOther) {
  constexpr int kProcesses = 3, kIterations = 30;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      int code = 0;
      try {
        Client client(options_for(server));
        Mutex mutex(client, "lock:processes", quick_options());
        increment_under_lock(mutex, server, "counter:processes", kIterations);
      } catch (...) {
        code = 1;
      }
      _exit(code);
    }
    children.push_back(child);
  }
  for (pid_t child : children) {
    int status = 0;
    waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  Admin admin(server);
  EXPECT_EQ(admin.get("counter:processes"), std::to_string(kProcesses * kIterations));
}

TEST_F(MutexRedisTest, OnlyTheOwnerCanReleaseOrRenew) {
  Client client(options_for(server));
  Mutex mutex(client, "lock:owner", quick_options());
  std::optional<Lease> mine = mutex.try_acquire(0ms);
  ASSERT_TRUE(mine);
  Lease forged = *mine;
  forged.token = "0123456789abcdef0123456789abcdef";
  EXPECT_EQ(mutex.release(forged), ReleaseStatus::not_owned);
  Lease forged_again = *mine;
  forged_again.token = forged.token;
  EXPECT_EQ(mutex.renew(forged_again), RenewStatus::lost);
  EXPECT_TRUE(forged_again.lost());
  Admin admin(server);
  EXPECT_EQ(admin.get("lock:owner"), mine->token);
  EXPECT_EQ(mutex.renew(*mine), RenewStatus::renewed);
  EXPECT_EQ(mutex.release(*mine), ReleaseStatus::released);
  EXPECT_EQ(mutex.release(*mine), ReleaseStatus::not_owned) << "a second release is harmless";
}

// ConnectionOptions::client_name names every connection the client makes, so an operator can tell in
// CLIENT LIST or MONITOR which service holds or frees a lock.
TEST_F(MutexRedisTest, ClientNameShowsInClientList) {
  ConnectionOptions options = options_for(server);
  options.client_name = "orders-service-7";
  Client client(options);
  Mutex mutex(client, "lock:named", quick_options());
  ASSERT_TRUE(mutex.try_lock());
  Admin admin(server);
  EXPECT_NE(admin.command({"CLIENT", "LIST"}).text.find(" name=orders-service-7 "), std::string::npos);
  mutex.unlock();
}

TEST_F(MutexRedisTest, ExpiryFreesTheLockAfterTheTtl) {
  Client first(options_for(server)), second(options_for(server));
  Mutex a(first, "lock:expiry", quick_options(300ms)), b(second, "lock:expiry", quick_options(300ms));
  std::optional<Lease> abandoned = a.try_acquire(0ms);
  ASSERT_TRUE(abandoned);
  EXPECT_LT(abandoned->remaining(), Micros(300ms));
  const auto before = std::chrono::steady_clock::now();
  std::optional<Lease> next = b.try_acquire(5s);
  ASSERT_TRUE(next);
  EXPECT_GE(std::chrono::steady_clock::now() - before, 150ms);
  EXPECT_EQ(a.renew(*abandoned), RenewStatus::lost) << "an expired lease is never re-created by renew";
  EXPECT_EQ(b.release(*next), ReleaseStatus::released);
}

TEST_F(MutexRedisTest, LeaseReportsLostOnceItsValidityRunsOut) {
  Client client(options_for(server));
  Mutex mutex(client, "lock:validity", quick_options(100ms));
  Guard guard = mutex.guard();
  EXPECT_FALSE(guard.lost());
  std::this_thread::sleep_for(150ms);
  EXPECT_TRUE(guard.lost());
  EXPECT_EQ(guard.release(), ReleaseStatus::not_owned);
}

TEST_F(MutexRedisTest, ReleaseProblemsAreReportedNotThrown) {
  Client client(options_for(server));
  std::vector<std::string> problems;
  MutexOptions options = quick_options(100ms);
  options.on_release_problem = [&](const std::string& message) { problems.push_back(message); };
  Mutex mutex(client, "lock:report", options);
  mutex.lock();
  std::this_thread::sleep_for(150ms);
  mutex.unlock();
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("expired"), std::string::npos);
}

TEST_F(MutexRedisTest, ScriptFlushIsHandledByNoscriptFallback) {
  Client client(options_for(server));
  Mutex mutex(client, "lock:noscript", quick_options());
  std::optional<Lease> lease = mutex.try_acquire(0ms);
  ASSERT_TRUE(lease);
  ASSERT_EQ(mutex.renew(*lease), RenewStatus::renewed);
  Admin admin(server);
  EXPECT_EQ(admin.command({"SCRIPT", "FLUSH"}), Reply::ok());
  EXPECT_EQ(mutex.renew(*lease), RenewStatus::renewed);
  EXPECT_EQ(admin.command({"SCRIPT", "FLUSH"}), Reply::ok());
  EXPECT_EQ(mutex.release(*lease), ReleaseStatus::released);
}

TEST_F(MutexRedisTest, ReconnectsAfterTheServerRestarts) {
  Client client(options_for(server));
  Mutex mutex(client, "lock:restart", quick_options());
  ASSERT_TRUE(mutex.try_lock());
  mutex.unlock();
  server.restart();
  // The old connection is dead: the first command fails, the lock reconnects and retries.
  EXPECT_TRUE(mutex.try_lock());
  Admin admin(server);
  EXPECT_EQ(admin.get("lock:restart"), mutex.lease()->token);
  mutex.unlock();
  EXPECT_EQ(admin.command({"EXISTS", "lock:restart"}).integer, 0);
}

TEST_F(MutexRedisTest, KilledConnectionIsAnUnknownOutcomeThatResolves) {
  Client client(options_for(server));
  Mutex mutex(client, "lock:killed", quick_options());
  ASSERT_TRUE(mutex.try_lock());
  mutex.unlock();
  Admin admin(server);
  admin.command({"CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"});
  EXPECT_TRUE(mutex.try_lock());
  mutex.unlock();
}

// The reply is lost but the command ran: the server is frozen (DEBUG SLEEP) past the client's timeout,
// then executes the queued SET. The retry recognises our own token instead of reporting "busy".
class SlowServerTest : public ::testing::Test {
 protected:
  testing::RedisServer server{std::vector<std::string>{"--enable-debug-command", "yes"}};
};

TEST_F(SlowServerTest, LostAcquireReplyIsRecoveredNotLeftAsAGhost) {
  ConnectionOptions connection = options_for(server);
  connection.command_timeout = 100ms;
  Client client(connection);
  MutexOptions options = quick_options();
  options.lock.retry.delay_min = 50ms;
  options.lock.retry.delay_max = 50ms;
  options.lock.retry.unknown_outcome_attempts = 20;
  Mutex mutex(client, "lock:slow", options);

  std::thread freezer([&] {
    Admin admin(server);
    admin.command({"DEBUG", "SLEEP", "0.6"});
  });
  std::this_thread::sleep_for(100ms);  // let DEBUG SLEEP start
  bool acquired = false;
  try {
    acquired = mutex.try_lock();
  } catch (const std::exception& error) {
    ADD_FAILURE() << "try_lock threw: " << error.what();
  }
  freezer.join();
  ASSERT_TRUE(acquired);
  Admin admin(server);
  EXPECT_EQ(admin.get("lock:slow"), mutex.lease()->token);
  mutex.unlock();
  EXPECT_EQ(admin.command({"EXISTS", "lock:slow"}).integer, 0);
}

TEST_F(SlowServerTest, AbandonedAcquireCleansUpItsToken) {
  ConnectionOptions connection = options_for(server);
  connection.command_timeout = 100ms;
  Client client(connection);
  MutexOptions options = quick_options();
  options.lock.retry.delay_min = 50ms;
  options.lock.retry.delay_max = 50ms;
  options.lock.retry.unknown_outcome_attempts = 0;  // give up at once after the lost reply
  options.lock.retry.idempotent_attempts = 30;      // but keep trying to clean up
  Mutex mutex(client, "lock:ghost", options);

  std::thread freezer([&] {
    Admin admin(server);
    admin.command({"DEBUG", "SLEEP", "0.5"});
  });
  std::this_thread::sleep_for(100ms);
  // The only attempt timed out: an honest ConnectionError, not a false "busy", and no key left behind.
  bool threw_connection_error = false;
  try {
    EXPECT_FALSE(mutex.try_lock());
  } catch (const ConnectionError& error) {
    threw_connection_error = true;
    EXPECT_NE(std::string(error.what()).find("cleaned up"), std::string::npos) << error.what();
  }
  freezer.join();
  EXPECT_TRUE(threw_connection_error);
  Admin admin(server);
  EXPECT_EQ(admin.command({"EXISTS", "lock:ghost"}).integer, 0) << "no ghost lock left behind";
}

TEST(MutexAuth, AclUserWithPasswordCanLock) {
  testing::RedisServer server(std::vector<std::string>{"--requirepass", "admin-secret"});
  Admin admin(server, "admin-secret");
  ASSERT_EQ(admin.command({"ACL", "SETUSER", "locker", "on", ">locker-secret", "~lock:*", "+@all"}), Reply::ok());
  ConnectionOptions connection = options_for(server);
  connection.username = "locker";
  connection.password = "locker-secret";
  Client client(connection);
  Mutex mutex(client, "lock:acl", quick_options());
  EXPECT_TRUE(mutex.try_lock());
  mutex.unlock();

  connection.password = "wrong";
  EXPECT_THROW(Client{connection}, ConnectionError);
  connection.username.clear();
  connection.password.clear();
  EXPECT_THROW(Client{connection}, ConnectionError) << "no password: NOAUTH on the first command";
}

TEST(MutexInputs, BadInputsGiveClearErrors) {
  EXPECT_THROW(Client(ConnectionOptions{.host = "127.0.0.1", .port = 0}), InvalidArgument);
  EXPECT_THROW(Client(ConnectionOptions{.host = ""}), InvalidArgument);
  EXPECT_THROW(Client(ConnectionOptions{.host = "no-such-host.invalid", .port = 6379}), ConnectionError);
  const int closed_port = testing::find_free_port();
  try {
    Client client(ConnectionOptions{.host = "127.0.0.1", .port = closed_port});
    ADD_FAILURE() << "connecting to a closed port must fail";
  } catch (const ConnectionError& error) {
    EXPECT_NE(std::string(error.what()).find(std::to_string(closed_port)), std::string::npos) << error.what();
  }
  testing::RedisServer server;
  Client client(options_for(server));
  EXPECT_THROW(Mutex(client, "", quick_options()), InvalidArgument);
  EXPECT_THROW(Mutex(client, "k", quick_options(0ms)), InvalidArgument);
  EXPECT_THROW(Mutex(client, "k", quick_options(Millis(1LL << 40))), InvalidArgument);
  // A lease no acquire returned is bad input at the lease-level API, not a broken invariant of the lock (abort).
  Mutex mutex(client, "k", quick_options());
  Lease none;
  EXPECT_THROW(mutex.release(none), InvalidArgument);
  EXPECT_THROW(mutex.renew(none), InvalidArgument);
}

TEST(MutexErrors, ErrorRepliesAreTypedNotSwallowed) {
  testing::RedisServer server;
  Client client(options_for(server));
  Mutex mutex(client, "lock:wrongtype", quick_options());
  Admin admin(server);
  admin.command({"HSET", "lock:wrongtype", "f", "v"});
  std::optional<Lease> lease = mutex.try_acquire(0ms);
  EXPECT_FALSE(lease) << "SET NX on an existing key of another type is just busy";
  Lease forged{"lock:wrongtype", "t", {}, {}, 0, false, &client.clock()};
  EXPECT_THROW(mutex.release(forged), RedisError);
}

}  // namespace
}  // namespace lockcheck
