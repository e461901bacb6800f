// HELLO, RESP3 on the wire, authentication order, CLIENT, CONFIG, COMMAND, INFO and keyspace notifications,
// driven through RespConnection (the exact request path of `lockcheck serve`) on bytes.
#include <gtest/gtest.h>

#include "mock_test_support.hpp"
#include "redis/command_table/command.hpp"
#include "redis/wire/resp_connection.hpp"

namespace lockcheck::mock::testing {
namespace {

std::string request(std::initializer_list<std::string> args) {
  std::string out = "*" + std::to_string(args.size()) + "\r\n";
  for (const std::string& arg : args) out += "$" + std::to_string(arg.size()) + "\r\n" + arg + "\r\n";
  return out;
}

struct ConnectionFixture : MockFixture {
  RespConnection connection{7, ConnectionLimits{}, ""};
  // The bytes the connection answers `args` with.
  std::string send(std::initializer_list<std::string> args) {
    connection.output().clear();
    connection.receive(request(args), node);
    return connection.output();
  }
};

struct PasswordFixture : ConnectionFixture {
  PasswordFixture() { connection = RespConnection{8, ConnectionLimits{}, "s3cret"}; }
};

// Redis 7.0.15 sends these nulls as null arrays on RESP2 (bytes recorded from redis-server).
TEST(NullArrays, GoOutAsStarMinusOneOnResp2) {
  ConnectionFixture f;
  EXPECT_EQ(f.send({"LPOP", "missing", "2"}), "*-1\r\n");
  EXPECT_EQ(f.send({"LPOP", "missing"}), "$-1\r\n");
  EXPECT_EQ(f.send({"ZMPOP", "1", "missing", "MIN"}), "*-1\r\n");
  f.send({"MULTI"});
  f.send({"BLMPOP", "0", "1", "m", "LEFT"});
  f.send({"BRPOPLPUSH", "m", "n", "0"});
  f.send({"BZMPOP", "0", "1", "m", "MIN"});
  EXPECT_EQ(f.send({"EXEC"}), "*3\r\n*-1\r\n$-1\r\n*-1\r\n");
  f.send({"HELLO", "3"});
  EXPECT_EQ(f.send({"LPOP", "missing", "2"}), "_\r\n");
}

TEST(Hello, SwitchesTheConnectionToResp3AndBack) {
  ConnectionFixture f;
  EXPECT_EQ(f.send({"HELLO", "3"}),
            "%7\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n$6\r\n7.0.15\r\n$5\r\nproto\r\n:3\r\n$2\r\nid\r\n:7\r\n"
            "$4\r\nmode\r\n$10\r\nstandalone\r\n$4\r\nrole\r\n$6\r\nmaster\r\n$7\r\nmodules\r\n*0\r\n");
  EXPECT_EQ(f.send({"GET", "missing"}), "_\r\n");
  f.send({"HSET", "h", "a", "1"});
  EXPECT_EQ(f.send({"HGETALL", "h"}), "%1\r\n$1\r\na\r\n$1\r\n1\r\n");
  f.send({"ZADD", "z", "1.5", "m"});
  EXPECT_EQ(f.send({"ZSCORE", "z", "m"}), ",1.5\r\n");
  EXPECT_EQ(f.send({"ZRANGE", "z", "0", "-1", "WITHSCORES"}), "*1\r\n*2\r\n$1\r\nm\r\n,1.5\r\n");
  EXPECT_EQ(f.send({"CONFIG", "GET", "maxmemory"}), "%1\r\n$9\r\nmaxmemory\r\n$1\r\n0\r\n");
  EXPECT_EQ(f.send({"SUBSCRIBE", "ch"}), ">3\r\n$9\r\nsubscribe\r\n$2\r\nch\r\n:1\r\n");
  EXPECT_EQ(f.send({"PING"}), "+PONG\r\n") << "RESP3 has no subscribed-mode restrictions";
  EXPECT_EQ(f.send({"GET", "missing"}), "_\r\n");
  EXPECT_EQ(f.send({"UNSUBSCRIBE"}), ">3\r\n$11\r\nunsubscribe\r\n$2\r\nch\r\n:0\r\n");
  EXPECT_EQ(f.send({"HELLO", "2"}).substr(0, 5), "*14\r\n");
  EXPECT_EQ(f.send({"HGETALL", "h"}), "*2\r\n$1\r\na\r\n$1\r\n1\r\n");
  EXPECT_EQ(f.send({"ZSCORE", "z", "m"}), "$3\r\n1.5\r\n");
  f.send({"SUBSCRIBE", "ch"});
  EXPECT_EQ(f.send({"GET", "x"}), "-ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET "
                                  "are allowed in this context\r\n");
}

TEST(Hello, ErrorsAsRedis) {
  ConnectionFixture f;
  EXPECT_EQ(f.send({"HELLO", "4"}), "-NOPROTO unsupported protocol version\r\n");
  EXPECT_EQ(f.send({"HELLO", "x"}), "-ERR Protocol version is not an integer or out of range\r\n");
  EXPECT_EQ(f.send({"HELLO", "3", "AUTH", "default"}), "-ERR Syntax error in HELLO option 'AUTH'\r\n");
  EXPECT_EQ(f.send({"HELLO", "3", "SETNAME", "a b"}),
            "-ERR Client names cannot contain spaces, newlines or special characters.\r\n");
  EXPECT_EQ(f.send({"HELLO", "3", "AUTH", "bob", "pw"}), "-WRONGPASS invalid username-password pair or user is disabled.\r\n");
  EXPECT_EQ(f.send({"GET", "missing"}), "$-1\r\n") << "a refused HELLO leaves the protocol alone";
  f.send({"HELLO", "2", "AUTH", "default", "anything", "SETNAME", "me"});  // nopass: any password
  EXPECT_EQ(f.send({"CLIENT", "GETNAME"}), "$2\r\nme\r\n");
}

TEST(Auth, UnknownCommandAndArityComeBeforeNoauth) {
  PasswordFixture f;
  EXPECT_EQ(f.send({"FOO"}), "-ERR unknown command 'FOO', with args beginning with: \r\n");
  EXPECT_EQ(f.send({"GET"}), "-ERR wrong number of arguments for 'get' command\r\n");
  EXPECT_EQ(f.send({"GET", "k"}), "-NOAUTH Authentication required.\r\n");
  EXPECT_EQ(f.send({"HELLO", "3"}).substr(0, 40), "-NOAUTH HELLO must be called with the cl");
  EXPECT_EQ(f.send({"AUTH", "wrong"}), "-WRONGPASS invalid username-password pair or user is disabled.\r\n");
  EXPECT_EQ(f.send({"HELLO", "3", "AUTH", "default", "s3cret"}).substr(0, 4), "%7\r\n");
  EXPECT_EQ(f.send({"GET", "k"}), "_\r\n") << "HELLO ... AUTH authenticates";
}

TEST(Auth, WithUsernameAndWithoutAPasswordConfigured) {
  PasswordFixture f;
  EXPECT_EQ(f.send({"AUTH", "bob", "s3cret"}), "-WRONGPASS invalid username-password pair or user is disabled.\r\n");
  EXPECT_EQ(f.send({"AUTH", "default", "s3cret"}), "+OK\r\n");
  EXPECT_EQ(f.send({"PING"}), "+PONG\r\n");
  ConnectionFixture open;
  EXPECT_EQ(open.send({"AUTH", "x"}), "-ERR AUTH <password> called without any password configured for the default user. "
                                      "Are you sure your configuration is correct?\r\n");
  EXPECT_EQ(open.send({"AUTH", "default", "x"}), "+OK\r\n");
  EXPECT_EQ(open.send({"AUTH", "a", "b", "c"}), "-ERR syntax error\r\n");
}

TEST(Client, NamesIdsRepliesAndErrors) {
  ConnectionFixture f;
  EXPECT_EQ(f.send({"CLIENT", "GETNAME"}), "$-1\r\n");
  EXPECT_EQ(f.send({"CLIENT", "SETNAME", "worker-1"}), "+OK\r\n");
  EXPECT_EQ(f.send({"CLIENT", "GETNAME"}), "$8\r\nworker-1\r\n");
  EXPECT_EQ(f.send({"CLIENT", "ID"}), ":7\r\n");
  EXPECT_EQ(f.send({"CLIENT", "SETNAME"}), "-ERR wrong number of arguments for 'client|setname' command\r\n");
  EXPECT_EQ(f.send({"CLIENT", "NOPE"}), "-ERR unknown subcommand 'NOPE'. Try CLIENT HELP.\r\n");
  EXPECT_EQ(f.send({"CLIENT", "NO-EVICT", "maybe"}), "-ERR syntax error\r\n");
  EXPECT_EQ(f.send({"CLIENT", "KILL", "1.2.3.4:5"}), "-ERR No such client\r\n");
  EXPECT_EQ(f.send({"CLIENT", "KILL", "ID", "99"}), ":0\r\n");
  std::string info = f.send({"CLIENT", "INFO"});
  EXPECT_NE(info.find("id=7 "), std::string::npos) << info;
  EXPECT_NE(info.find("name=worker-1 "), std::string::npos) << info;
  EXPECT_EQ(f.send({"CLIENT", "REPLY", "OFF"}), "");
  EXPECT_EQ(f.send({"SET", "k", "v"}), "");
  EXPECT_EQ(f.send({"CLIENT", "REPLY", "ON"}), "+OK\r\n");
  EXPECT_EQ(f.send({"CLIENT", "REPLY", "SKIP"}), "");
  EXPECT_EQ(f.send({"GET", "k"}), "");
  EXPECT_EQ(f.send({"GET", "k"}), "$1\r\nv\r\n");
}

TEST(Config, GetSetAndValidationAsRedis) {
  ConnectionFixture f;
  EXPECT_EQ(f.send({"CONFIG", "GET", "busy-reply-threshold"}), "*2\r\n$20\r\nbusy-reply-threshold\r\n$4\r\n5000\r\n");
  EXPECT_EQ(f.send({"CONFIG", "GET", "lua-time-limit"}), "*2\r\n$14\r\nlua-time-limit\r\n$4\r\n5000\r\n");
  EXPECT_EQ(f.send({"CONFIG", "SET", "maxmemory", "1gb"}), "+OK\r\n");
  EXPECT_EQ(f.send({"CONFIG", "GET", "maxmemory"}), "*2\r\n$9\r\nmaxmemory\r\n$10\r\n1073741824\r\n");
  EXPECT_EQ(f.send({"CONFIG", "SET", "databases", "4"}),
            "-ERR CONFIG SET failed (possibly related to argument 'databases') - can't set immutable config\r\n");
  EXPECT_EQ(f.send({"CONFIG", "SET", "notify-keyspace-events", "Q"}),
            "-ERR CONFIG SET failed (possibly related to argument 'notify-keyspace-events') - Invalid event class "
            "character. Use 'Ag$lshzxeKEtmdn'.\r\n");
  EXPECT_EQ(f.send({"CONFIG", "SET", "notify-keyspace-events", "KEA"}), "+OK\r\n");
  EXPECT_EQ(f.send({"CONFIG", "GET", "notify-keyspace-events"}), "*2\r\n$22\r\nnotify-keyspace-events\r\n$3\r\nAKE\r\n");
  EXPECT_EQ(f.send({"CONFIG", "SET", "foo", "1"}), "-ERR Unknown option or number of arguments for CONFIG SET - 'foo'\r\n");
  EXPECT_EQ(f.send({"CONFIG", "SET", "maxmemory"}), "-ERR wrong number of arguments for 'config|set' command\r\n");
  EXPECT_EQ(f.send({"CONFIG", "RESETSTAT"}), "+OK\r\n");
  const std::string all = f.send({"CONFIG", "GET", "maxmemory*"});
  EXPECT_NE(all.find("maxmemory-policy"), std::string::npos) << all;
}

TEST(Introspection, InfoAndCommandComeFromTheNodeAndTheTable) {
  ConnectionFixture f;
  f.send({"SET", "a", "1"});
  f.send({"SET", "b", "2", "EX", "100"});
  const std::string info = f.send({"INFO"});
  for (const char* field : {"redis_version:7.0.15", "arch_bits:64", "used_memory:", "loading:0", "connected_clients:",
                            "role:master", "db0:keys=2,expires=1,avg_ttl=0", "# Keyspace"}) {
    EXPECT_NE(info.find(field), std::string::npos) << field;
  }
  EXPECT_EQ(f.send({"COMMAND", "COUNT"}), ":" + std::to_string(all_commands().size()) + "\r\n");
  const std::string get = f.send({"COMMAND", "INFO", "get", "nosuch"});
  EXPECT_EQ(get.substr(0, 26), "*2\r\n*10\r\n$3\r\nget\r\n:2\r\n*1\r\n") << get;
  EXPECT_NE(get.find("$-1\r\n"), std::string::npos) << "unknown names answer nil";
}

TEST(Notifications, KeyspaceAndKeyeventMessagesWhenConfigured) {
  MockFixture f;
  std::vector<std::string> messages;
  f.node.set_publish_sink([&](std::int64_t, const Reply& message) {
    messages.push_back(message.elements[1].text + " " + message.elements[2].text);
  });
  Session subscriber{.client_id = 2};
  f.node.execute({"SUBSCRIBE", "__keyspace@0__:k", "__keyevent@0__:expired", "__keyevent@0__:del"}, subscriber);
  f.run({"SET", "k", "v"});
  EXPECT_TRUE(messages.empty()) << "off by default";
  EXPECT_EQ(f.run({"CONFIG", "SET", "notify-keyspace-events", "KEA"}), S("OK"));
  f.run({"SET", "k", "v", "PX", "10"});
  f.now_ms += 11;
  f.run({"GET", "k"});
  f.run({"SET", "k", "v"});
  f.run({"DEL", "k"});
  EXPECT_EQ(messages, (std::vector<std::string>{"__keyspace@0__:k set", "__keyspace@0__:k expire",
                                                "__keyspace@0__:k expired", "__keyevent@0__:expired k",
                                                "__keyspace@0__:k set", "__keyspace@0__:k del", "__keyevent@0__:del k"}));
}

TEST(Scripting, SetResp3ConvertsBothWays) {
  MockFixture f;
  f.run({"HSET", "h", "a", "1"});
  EXPECT_EQ(f.eval("redis.setresp(3); return redis.call('hgetall', KEYS[1]).map.a", {"h"}), B("1"));
  EXPECT_EQ(f.eval("redis.setresp(3); return redis.call('get', 'missing') == nil and 1 or 0"), I(1));
  EXPECT_EQ(f.eval("return redis.call('get', 'missing') == false and 1 or 0"), I(1));
  EXPECT_EQ(f.eval("return {double = 2.5}"), B("2.5")) << "a RESP2 caller gets a double as a bulk string";
  EXPECT_EQ(f.eval("redis.setresp(3); return false"), I(0)) << "a RESP3 boolean to a RESP2 caller";
  EXPECT_EQ(f.eval("return false"), N());
  f.session.resp = 3;
  EXPECT_EQ(f.eval("return {double = 2.5}"), Reply::double_reply("2.5"));
  EXPECT_EQ(f.eval("redis.setresp(3); return true"), Reply::boolean(true));
  EXPECT_EQ(f.eval("return {map = {x = 'y'}}"), Reply::map({B("x"), B("y")}));
  EXPECT_EQ(f.eval("return {set = {x = true}}"), Reply::set({B("x")}));
  EXPECT_EQ(f.eval("return {big_number = '123456789012345678901234567890'}"),
            Reply::big_number("123456789012345678901234567890"));
}

}  // namespace
}  // namespace lockcheck::mock::testing
