// Blocking pops on a node with a hand-driven clock: served by a later push in blocking order, timed out on
// the node clock, never blocking inside EXEC or scripts (replies and errors as redis-server 7.0.15's).
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class Blocking : public BlockedClientsFixture {};

TEST_F(Blocking, APushServesTheFirstBlockedClient) {
  node.execute({"blpop", "a", "q", "0"}, second);
  node.execute({"brpop", "q", "0"}, third);
  EXPECT_TRUE(second.blocked);
  EXPECT_REPLY(run({"rpush", "q", "x"}), I(1));
  ASSERT_EQ(late.size(), 1u);
  EXPECT_EQ(late[0], late_reply(2, A({B("q"), B("x")})));
  EXPECT_FALSE(second.blocked);
  EXPECT_TRUE(third.blocked);
  EXPECT_REPLY(run({"exists", "q"}), I(0));
  run({"rpush", "q", "y", "z"});
  EXPECT_EQ(late.at(1), late_reply(3, A({B("q"), B("z")})));
  EXPECT_REPLY(run({"lrange", "q", "0", "-1"}), A({B("y")}));
}

// unit/type/list "BLPOP, LPUSH + DEL + SET should not awake blocked client": the key is a string when the
// transaction ends, so the client stays parked (the mock answered WRONGTYPE), and a later push serves it.
TEST_F(Blocking, AKeyOfAnotherTypeLeavesTheClientParked) {
  node.execute({"blpop", "list", "0"}, second);
  run({"multi"});
  run({"lpush", "list", "a"});
  run({"del", "list"});
  run({"set", "list", "foo"});
  run({"exec"});
  EXPECT_TRUE(late.empty());
  EXPECT_TRUE(second.blocked);
  run({"del", "list"});
  run({"lpush", "list", "b"});
  ASSERT_EQ(late.size(), 1u);
  EXPECT_EQ(late[0], late_reply(2, A({B("list"), B("b")})));
  // A destination of another type is answered, not waited on: "BRPOPLPUSH with wrong destination type".
  run({"set", "target", "nolist"});
  node.execute({"brpoplpush", "blist", "target", "0"}, third);
  run({"rpush", "blist", "foo"});
  ASSERT_EQ(late.size(), 2u);
  EXPECT_EQ(late[1], late_reply(3, E("WRONGTYPE Operation against a key holding the wrong kind of value")));
  EXPECT_REPLY(run({"lrange", "blist", "0", "-1"}), A({B("foo")}));
}

// CLIENT UNBLOCK id [TIMEOUT|ERROR] as 7.0.15 answers it (it was an unknown subcommand).
TEST_F(Blocking, ClientUnblockAnswersAsTimeoutOrError) {
  node.execute({"blpop", "q", "0"}, second);
  node.execute({"bzpopmin", "z", "0"}, third);
  EXPECT_REPLY(run({"client", "unblock", "2"}), I(1));
  EXPECT_REPLY(run({"client", "unblock", "3", "error"}), I(1));
  ASSERT_EQ(late.size(), 2u);
  EXPECT_EQ(late[0], late_reply(2, Reply::null_array()));
  EXPECT_EQ(late[1], late_reply(3, E("UNBLOCKED client unblocked via CLIENT UNBLOCK")));
  EXPECT_FALSE(second.blocked);
  EXPECT_REPLY(run({"client", "unblock", "2"}), I(0));  // no longer blocked
  EXPECT_REPLY(run({"client", "unblock", "2", "later"}), E("ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR"));
  EXPECT_REPLY(run({"client", "unblock", "x"}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(run({"client", "unblock", "2", "timeout", "x"}), E("ERR unknown subcommand or wrong number of arguments for 'unblock'. Try CLIENT HELP."));
}

// "BLPOP: with 0.001 timeout should not block indefinitely": the timeout is rounded up to 1 ms (the mock
// truncated it to 0, which blocks forever).
TEST_F(Blocking, ASubMillisecondTimeoutRoundsUp) {
  node.execute({"blpop", "q", "0.001"}, second);
  EXPECT_TRUE(second.blocked);
  now_ms += 1;
  node.expire_blocked();
  ASSERT_EQ(late.size(), 1u);
  EXPECT_EQ(late[0], late_reply(2, Reply::null_array()));
}

TEST_F(Blocking, TimeoutOnTheNodeClock) {
  node.execute({"bzpopmin", "z", "1.5"}, second);
  now_ms += 1499;
  node.expire_blocked();
  EXPECT_TRUE(late.empty());
  now_ms += 1;
  node.expire_blocked();
  ASSERT_EQ(late.size(), 1u);
  EXPECT_EQ(late[0], late_reply(2, Reply::null_array()));
  EXPECT_FALSE(second.blocked);
  run({"zadd", "z", "1", "m"});
  EXPECT_EQ(late.size(), 1u);  // no longer waiting
}

TEST_F(Blocking, MovesAndSortedSetPops) {
  node.execute({"blmove", "src", "dst", "left", "right", "0"}, second);
  node.execute({"bzpopmax", "z", "0"}, third);
  run({"lpush", "src", "a"});
  run({"zadd", "z", "1", "m", "2", "n"});
  ASSERT_EQ(late.size(), 2u);
  EXPECT_EQ(late[0], late_reply(2, B("a")));
  EXPECT_EQ(late[1], late_reply(3, A({B("z"), B("n"), B("2")})));
  EXPECT_REPLY(run({"lrange", "dst", "0", "-1"}), A({B("a")}));
  node.disconnect(second);
}

TEST_F(Blocking, ImmediateRepliesErrorsAndNoBlockingInExecOrScripts) {
  run({"rpush", "l", "a"});
  EXPECT_REPLY(run({"blpop", "missing", "l", "0"}), A({B("l"), B("a")}));
  EXPECT_REPLY(run({"blpop", "l", "x"}), E("ERR timeout is not a float or out of range"));
  EXPECT_REPLY(run({"blpop", "l", "-1"}), E("ERR timeout is negative"));
  EXPECT_REPLY(run({"blpop", "l", "9999999999999999"}), E("ERR timeout is negative"));
  EXPECT_REPLY(run({"blmove", "l", "x", "up", "down", "0"}), E("ERR syntax error"));
  run({"set", "str", "v"});
  EXPECT_REPLY(run({"blpop", "missing", "str", "1"}), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
  run({"multi"});
  run({"blpop", "missing", "0"});
  run({"blmove", "missing", "x", "left", "left", "0"});
  // Inside EXEC 7.0 answers BLPOP as a timeout ("*-1") and BLMOVE with a nil bulk; scripts may not call them.
  EXPECT_REPLY(run({"exec"}), A({Reply::null_array(), N()}));
  // 7.0.15: the older blocking commands are refused in scripts; BLMPOP/BZMPOP answer nil there without blocking.
  EXPECT_REPLY(eval("return redis.pcall('blpop', 'missing', 0)"), E("ERR This Redis command is not allowed from script"));
  EXPECT_REPLY(eval("return redis.pcall('bzpopmin', 'missing', 0)"), E("ERR This Redis command is not allowed from script"));
  EXPECT_REPLY(eval("return redis.call('blmpop', 0, 1, 'missing', 'left')"), N());
  EXPECT_REPLY(eval("return redis.call('bzmpop', 0, 1, 'missing', 'min')"), N());
  EXPECT_FALSE(session.blocked);
  EXPECT_TRUE(late.empty());
}

TEST_F(Blocking, ScriptsMayNotCallBlockingCommandsOrClusterReset) {
  const Reply refused = E("ERR This Redis command is not allowed from script");
  EXPECT_REPLY(eval("return redis.pcall('blpop', 'x', 0)"), refused);
  EXPECT_REPLY(eval("return redis.pcall('brpop', 'x', 0)"), refused);
  EXPECT_REPLY(eval("return redis.pcall('brpoplpush', 'x', 'y', 0)"), refused);
  EXPECT_REPLY(eval("return redis.pcall('blmove', 'x', 'y', 'left', 'right', 0)"), refused);
  EXPECT_REPLY(eval("return redis.pcall('bzpopmin', 'z', 0)"), refused);
  EXPECT_REPLY(eval("return redis.pcall('bzpopmax', 'z', 0)"), refused);
  EXPECT_REPLY(eval("return redis.pcall('cluster', 'reset')"), refused);  // noscript as a subcommand only
}

TEST(BlockingWithoutATransport, AnswersAtOnce) {
  std::int64_t now_ms = 0;
  Node node(NodeOptions{.clock = [&] { return now_ms; }});
  Session session{.client_id = 1};
  EXPECT_EQ(node.execute({"blpop", "q", "0"}, session), Reply::null_array());
  EXPECT_FALSE(session.blocked);
}

TEST_F(Blocking, InfoCountsParkedClients) {
  // Redis's Tcl helpers (wait_for_blocked_client) poll these two lines while a deferred client blocks.
  auto info_line = [this](const std::string& field) {
    const std::string text = run({"info", "clients"}).text;
    const auto at = text.find(field + ":");
    return at == std::string::npos ? std::string("missing") : text.substr(at, text.find('\r', at) - at);
  };
  EXPECT_EQ(info_line("blocked_clients"), "blocked_clients:0");
  node.execute({"blpop", "q", "0"}, second);
  node.execute({"brpop", "q", "2"}, third);
  EXPECT_EQ(info_line("blocked_clients"), "blocked_clients:2");
  EXPECT_EQ(info_line("clients_in_timeout_table"), "clients_in_timeout_table:1");
  run({"rpush", "q", "x"});
  EXPECT_EQ(info_line("blocked_clients"), "blocked_clients:1");
  node.disconnect(third);
  EXPECT_EQ(info_line("blocked_clients"), "blocked_clients:0");
  EXPECT_EQ(info_line("clients_in_timeout_table"), "clients_in_timeout_table:0");
}

}  // namespace
}  // namespace lockcheck::mock::testing
