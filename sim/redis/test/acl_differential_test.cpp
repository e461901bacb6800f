// ACL against a private redis-server 7.0.15: the same ACL SETUSER / GETUSER / LIST / DRYRUN / WHOAMI / AUTH and
// refused commands on both, replies compared; and a RapidCheck property: for random rule sets and commands,
// ACL DRYRUN answers as redis-server does.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <sstream>

#include "hiredis_client.hpp"
#include "redis/server/node.hpp"
#include "redis/wire/real_clock.hpp"
#include "redis_server.hpp"

namespace lockcheck::mock::testing {

using lockcheck::testing::HiredisClient;
namespace {

// Redis lists single-command rules in its command dict's order, seeded at random per process (README): a
// rules text is compared as its set of words. hiredis reads "*-1" as nil.
Reply comparable(Reply reply) {
  if (reply.kind == Reply::Kind::null_array) return Reply::nil();
  if (reply.kind == Reply::Kind::bulk || reply.kind == Reply::Kind::status) {
    std::istringstream words(reply.text);
    std::vector<std::string> sorted{std::istream_iterator<std::string>(words), std::istream_iterator<std::string>()};
    std::sort(sorted.begin(), sorted.end());
    std::string joined;
    for (const std::string& word : sorted) joined += word + " ";
    reply.text = joined;
  }
  for (Reply& element : reply.elements) element = comparable(std::move(element));
  return reply;
}

std::string show(const Command& command) {
  std::string out;
  for (const std::string& arg : command) out += "'" + arg + "' ";
  return out;
}

// The two servers side by side: a session on the mock node and a connection to redis-server, each an admin
// (default user) and a client that AUTHs as users.
struct Pair {
  lockcheck::testing::RedisServer server;
  HiredisClient real_admin{server.host(), server.port()};
  HiredisClient real_user{server.host(), server.port()};
  Node node{NodeOptions{.clock = real_unix_time_ms}};
  Session admin{.client_id = 1};
  Session user{.client_id = 2};

  // Both answers, comparable.
  std::pair<Reply, Reply> both(const Command& command, bool as_user) {
    Reply real = (as_user ? real_user : real_admin).call(command);
    Reply mock = node.execute(command, as_user ? user : admin);
    return {comparable(std::move(mock)), comparable(std::move(real))};
  }
};

TEST(AclDifferential, UsersRulesAndRefusalsAnswerAsRedis) {
  Pair pair;
  const std::vector<std::pair<Command, bool>> steps = {
      {{"ACL", "SETUSER", "bob", "on", ">123", "+@scripting", "+set", "~x*"}, false},
      {{"ACL", "SETUSER", "alice", "on", ">p1", "~lock:*", "+@scripting", "+get", "+set", "-eval_ro", "&ch*", "%R~ro:*"}, false},
      {{"ACL", "SETUSER", "x", "+config|get", "+select|0", "+@hash", "-hdel"}, false},
      {{"ACL", "SETUSER", "y", "(+get ~k*)", "(%W~w*", "+set)", "%R~r", "&ch"}, false},
      {{"ACL", "SETUSER", "z", "+@all", "-@dangerous", "-@admin", "+config|get"}, false},
      {{"ACL", "SETUSER", "w", "+@read", "+@write", "-@keyspace", "allkeys", "allchannels"}, false},
      {{"ACL", "SETUSER", "bad", "+bogus"}, false},
      {{"ACL", "SETUSER", "bad", "~a", "allkeys", "~b"}, false},
      {{"ACL", "SETUSER", "bad", "#abc"}, false},
      {{"ACL", "SETUSER", "bad", "(+get"}, false},
      {{"ACL", "SETUSER", "bad", "+config|get|x"}, false},
      {{"ACL", "SETUSER", "with space"}, false},
      {{"ACL", "GETUSER", "bob"}, false},
      {{"ACL", "GETUSER", "alice"}, false},
      {{"ACL", "GETUSER", "y"}, false},
      {{"ACL", "GETUSER", "nobody"}, false},
      {{"ACL", "LIST"}, false},
      {{"ACL", "USERS"}, false},
      {{"ACL", "WHOAMI"}, false},
      {{"ACL", "DRYRUN", "alice", "get", "lock:1"}, false},
      {{"ACL", "DRYRUN", "alice", "set", "ro:1", "v"}, false},
      {{"ACL", "DRYRUN", "alice", "hset", "lock:1", "f", "v"}, false},
      {{"ACL", "DRYRUN", "alice", "publish", "chat", "m"}, false},
      {{"ACL", "DRYRUN", "alice", "publish", "other", "m"}, false},
      {{"ACL", "DRYRUN", "x", "config", "get", "maxmemory"}, false},
      {{"ACL", "DRYRUN", "x", "config", "set", "maxmemory", "1"}, false},
      {{"ACL", "DRYRUN", "x", "select", "1"}, false},
      {{"ACL", "DRYRUN", "nobody", "get", "k"}, false},
      {{"ACL", "DRYRUN", "x", "nosuch"}, false},
      {{"ACL", "DRYRUN", "x", "get"}, false},
      {{"ACL", "CAT"}, false},
      {{"ACL", "CAT", "nope"}, false},
      {{"ACL", "GENPASS", "0"}, false},
      {{"ACL", "SAVE"}, false},
      {{"ACL", "LOAD"}, false},
      {{"ACL", "HELP"}, false},
      {{"ACL", "DELUSER", "default"}, false},
      {{"AUTH", "bob", "wrong"}, true},
      {{"AUTH", "nobody", "123"}, true},
      {{"AUTH", "bob", "123"}, true},
      {{"ACL", "WHOAMI"}, true},
      {{"GET", "x1"}, true},
      {{"SET", "x1", "v"}, true},
      {{"SET", "y1", "v"}, true},
      {{"HSET", "x2", "f", "v"}, true},
      {{"EVAL", "return redis.call('get', KEYS[1])", "1", "x1"}, true},
      {{"EVAL", "return redis.pcall('set', 'yy', 1)", "0"}, true},
      {{"EVAL", "return redis.acl_check_cmd('set', 'xx', 1)", "0"}, true},
      {{"EVAL", "return redis.acl_check_cmd('hset', 'xx', 'f', 1)", "0"}, true},
      {{"MULTI"}, true},
      {{"CLIENT", "INFO"}, true},
      {{"AUTH", "alice", "p1"}, true},
      {{"MULTI"}, true},
      {{"GET", "lock:a"}, true},
      {{"HGET", "lock:a", "f"}, true},
      {{"EXEC"}, true},
      {{"PUBLISH", "chan", "m"}, true},
      {{"PUBLISH", "other", "m"}, true},
      {{"ACL", "DELUSER", "bob", "nobody"}, false},
      {{"ACL", "USERS"}, false},
  };
  for (std::size_t i = 0; i < steps.size(); ++i) {
    auto [mock, real] = pair.both(steps[i].first, steps[i].second);
    EXPECT_EQ(to_string(mock), to_string(real)) << "step " << i << ": " << show(steps[i].first);
  }
}

// Rule sets and commands drawn from small pools: categories, commands, subcommands, first args, key and channel
// patterns with read/write access; commands with keys read, written or both, and channels.
rc::Gen<std::vector<std::string>> rules() {
  return rc::gen::container<std::vector<std::string>>(rc::gen::element<std::string>(
      "+@all", "-@all", "+@read", "-@read", "+@write", "+@string", "-@string", "+@hash", "+@keyspace", "-@keyspace",
      "+@scripting", "+@pubsub", "-@dangerous", "+@admin", "+@fast", "-@slow", "+get", "-get", "+set", "-set",
      "+config|get", "-config|set", "+client", "-client|kill", "+select|0", "+hset", "-hdel", "~*", "~k*", "%R~r*",
      "%W~w*", "%RW~rw*", "resetkeys", "allkeys", "&*", "&ch*", "resetchannels", "allchannels", "nocommands",
      "allcommands"));
}

rc::Gen<Command> dryrun_command() {
  auto key = rc::gen::element<std::string>("k1", "r1", "w1", "rw1", "x");
  auto channel = rc::gen::element<std::string>("ch1", "x", "ch*");
  return rc::gen::oneOf(
      rc::gen::map(key, [](std::string k) { return Command{"get", k}; }),
      rc::gen::map(key, [](std::string k) { return Command{"set", k, "v"}; }),
      rc::gen::map(key, [](std::string k) { return Command{"set", k, "v", "get"}; }),
      rc::gen::map(key, [](std::string k) { return Command{"hset", k, "f", "v"}; }),
      rc::gen::map(key, [](std::string k) { return Command{"hdel", k, "f"}; }),
      rc::gen::map(key, [](std::string k) { return Command{"del", k}; }),
      rc::gen::map(key, [](std::string k) { return Command{"exists", k}; }),
      rc::gen::map(rc::gen::pair(key, key), [](auto p) { return Command{"copy", p.first, p.second}; }),
      rc::gen::map(rc::gen::pair(key, key), [](auto p) { return Command{"lmove", p.first, p.second, "left", "right"}; }),
      rc::gen::map(key, [](std::string k) { return Command{"eval", "return 1", "1", k}; }),
      rc::gen::map(channel, [](std::string c) { return Command{"publish", c, "m"}; }),
      rc::gen::map(channel, [](std::string c) { return Command{"subscribe", c}; }),
      rc::gen::map(channel, [](std::string c) { return Command{"psubscribe", c}; }),
      rc::gen::just(Command{"config", "get", "maxmemory"}), rc::gen::just(Command{"config", "set", "maxmemory", "0"}),
      rc::gen::just(Command{"client", "kill", "id", "99"}), rc::gen::just(Command{"client", "id"}),
      rc::gen::just(Command{"select", "0"}), rc::gen::just(Command{"select", "1"}), rc::gen::just(Command{"flushall"}));
}

TEST(AclDifferential, DryrunAgreesWithRedisForRandomRuleSets) {
  // One seed: CI replays it (sim/redis/README.md says how to try others).
  setenv("RC_PARAMS", "max_success=1000 max_size=12 seed=1", /*overwrite=*/0);
  Pair pair;
  std::string last_failure;
  const bool ok = rc::check("ACL DRYRUN answers as redis-server 7.0.15", [&] {
    const std::vector<std::string> user_rules = *rules();
    const std::vector<Command> commands = *rc::gen::container<std::vector<Command>>(3, dryrun_command());
    Command setuser{"ACL", "SETUSER", "u", "reset", "on"};
    setuser.insert(setuser.end(), user_rules.begin(), user_rules.end());
    auto [mock_set, real_set] = pair.both(setuser, false);
    if (to_string(mock_set) != to_string(real_set)) {
      last_failure = show(setuser) + "\n  mock: " + to_string(mock_set) + "\n  redis: " + to_string(real_set);
      RC_FAIL(last_failure);
    }
    auto [mock_list, real_list] = pair.both({"ACL", "GETUSER", "u"}, false);
    if (to_string(mock_list) != to_string(real_list)) {
      last_failure = show(setuser) + " then GETUSER\n  mock: " + to_string(mock_list) + "\n  redis: " + to_string(real_list);
      RC_FAIL(last_failure);
    }
    for (const Command& command : commands) {
      Command dryrun{"ACL", "DRYRUN", "u"};
      dryrun.insert(dryrun.end(), command.begin(), command.end());
      auto [mock, real] = pair.both(dryrun, false);
      if (to_string(mock) != to_string(real)) {
        last_failure = show(setuser) + " then " + show(dryrun) + "\n  mock: " + to_string(mock) + "\n  redis: " + to_string(real);
        RC_FAIL(last_failure);
      }
    }
  });
  EXPECT_TRUE(ok) << last_failure;
}

}  // namespace
}  // namespace lockcheck::mock::testing
