// The `script` variant runs a user's Lua files on real Redis, under the contract, with typed errors.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "lockcheck/client.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/variants/script_lock.hpp"
#include "redis_server.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;

std::string read_example(const std::string& name) {
  std::ifstream in(std::string(LOCKCHECK_EXAMPLE_SCRIPTS) + "/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class ScriptLockTest : public ::testing::Test {
 protected:
  testing::RedisServer server;
  Client client{ConnectionOptions{.host = server.host(), .port = server.port()}};
  LockOptions options{.ttl = 2000ms};
};

TEST_F(ScriptLockTest, UserScriptsLockAndReleaseOnRealRedis) {
  const UserScripts scripts{read_example("token_acquire.lua"), read_example("token_release.lua"), ""};
  ASSERT_FALSE(scripts.acquire.empty());
  ScriptLock a(client.port(), client.clock(), client.entropy(), options, scripts);
  ScriptLock b(client.port(), client.clock(), client.entropy(), options, scripts);
  AcquireResult held = run_sync(a.acquire("lock:script", 0ms));
  ASSERT_EQ(held.status, AcquireStatus::acquired) << held.detail;
  EXPECT_EQ(run_sync(b.acquire("lock:script", 0ms)).status, AcquireStatus::busy);
  EXPECT_THROW(run_sync(a.renew(*held.lease)), InvalidArgument) << "no renew.lua was given";
  EXPECT_EQ(run_sync(a.release(*held.lease)), ReleaseStatus::released);
  EXPECT_EQ(run_sync(b.acquire("lock:script", 0ms)).status, AcquireStatus::acquired);
}

TEST_F(ScriptLockTest, AReplyOutsideTheContractIsATypedError) {
  const UserScripts scripts{"return 'yes'", read_example("token_release.lua"), ""};
  ScriptLock lock(client.port(), client.clock(), client.entropy(), options, scripts);
  try {
    run_sync(lock.acquire("lock:contract", 0ms));
    ADD_FAILURE() << "a string reply must not count as granted or busy";
  } catch (const RedisError& error) {
    EXPECT_NE(std::string(error.what()).find("acquire.lua broke the lock script contract"), std::string::npos) << error.what();
  }
}

TEST(ScriptLockInputs, AcquireAndReleaseAreRequired) {
  testing::RedisServer server;
  Client client(ConnectionOptions{.host = server.host(), .port = server.port()});
  EXPECT_THROW(ScriptLock(client.port(), client.clock(), client.entropy(), LockOptions{}, UserScripts{"", "return 0", ""}),
               InvalidArgument);
}

}  // namespace
}  // namespace lockcheck
