// Security properties of the library against a real redis-server: it works under a least-privilege ACL
// user, a denied command is a typed error, and hostile key or token bytes are data, never code or protocol.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "hiredis_client.hpp"
#include "lock_testing.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/mutex.hpp"
#include "redis_server.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;
using Admin = testing::HiredisClient;

MutexOptions quick() { return testing::quick_mutex_options(5000ms, 2s); }

// The README's recommended ACL: only the lock keys, only the commands the token lock sends.
TEST(Security, LeastPrivilegeAclUserLocksOnlyItsKeys) {
  testing::RedisServer server(std::vector<std::string>{"--requirepass", "admin-secret"});
  Admin admin(server, "admin-secret");
  // SET from the client; GET, DEL, PEXPIRE from inside the compare-and-* scripts.
  ASSERT_EQ(admin.command({"ACL", "SETUSER", "locker", "reset", "on", ">locker-secret", "~lock:*", "+ping", "+set",
                           "+get", "+del", "+pexpire", "+eval", "+evalsha"}),
            Reply::ok());
  ConnectionOptions connection = testing::options_for(server);
  connection.username = "locker";
  connection.password = "locker-secret";
  Client client(connection);
  Mutex mutex(client, "lock:acl-minimal", quick());
  ASSERT_TRUE(mutex.try_lock());
  EXPECT_TRUE(mutex.renew());
  mutex.unlock();
  EXPECT_FALSE(admin.exists("lock:acl-minimal"));

  Mutex outside(client, "orders:42", quick());
  EXPECT_THROW(outside.try_lock(), RedisError) << "NOPERM is a typed error, not a silent 'busy'";
  EXPECT_FALSE(admin.exists("orders:42"));
}

// Keys and tokens reach Redis only as command arguments and scripts only through KEYS/ARGV: Lua syntax in
// a key is not executed, and RESP framing bytes in a key do not start a new command.
TEST(Security, HostileKeyBytesAreJustAKey) {
  testing::RedisServer server;
  Admin admin(server);
  admin.command({"SET", "canary", "alive"});
  const std::string hostile_keys[] = {
      "lock:') redis.call('flushall') --",
      "lock:]] redis.call('flushall') --[[",
      "lock:\r\n*1\r\n$8\r\nFLUSHALL\r\n",
      std::string("lock:\0binary", 12),
  };
  Client client(testing::options_for(server));
  for (const std::string& key : hostile_keys) {
    Mutex mutex(client, key, quick());
    ASSERT_TRUE(mutex.try_lock()) << key;
    EXPECT_EQ(admin.get(key), mutex.lease()->token) << "stored under exactly these bytes";
    mutex.unlock();
    EXPECT_FALSE(admin.exists(key));
  }
  EXPECT_EQ(admin.get("canary"), "alive") << "nothing was flushed";
}

TEST(Security, TokensAreFreshAndUnpredictablePerAcquisition) {
  testing::RedisServer server;
  Client client(testing::options_for(server));
  Mutex mutex(client, "lock:tokens", quick());
  std::set<std::string> tokens;
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(mutex.try_lock());
    tokens.insert(mutex.lease()->token);
    EXPECT_EQ(mutex.lease()->token.size(), 32u) << "128 bits as hex";
    mutex.unlock();
  }
  EXPECT_EQ(tokens.size(), 50u);
}

}  // namespace
}  // namespace lockcheck
