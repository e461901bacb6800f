// ACL checks before a command runs, as Redis 7.0.15 makes them: command and subcommand bits, first-arg
// exceptions, key read/write access from the key specs, channels; at queue time and again at EXEC; inside
// scripts (redis.call, redis.acl_check_cmd); ACL DRYRUN and ACL LOG (texts checked against redis-server 7.0.15).
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class AclChecks : public ::testing::Test, public MockFixture {
 protected:
  Session admin{.client_id = 9};
  Reply as_admin(std::initializer_list<std::string> args) { return node.execute(Command(args), admin); }
  void login(std::initializer_list<std::string> rules) {
    Command setuser{"acl", "setuser", "u", "on", "nopass"};
    setuser.insert(setuser.end(), rules);
    ASSERT_EQ(to_string(as_admin_command(setuser)), to_string(S("OK")));
    ASSERT_EQ(to_string(run({"auth", "u", "x"})), to_string(S("OK")));
  }
  Reply as_admin_command(const Command& command) { return node.execute(command, admin); }
};

TEST_F(AclChecks, RefusedCommandKeyAndChannelAtTopLevel) {
  login({"+get", "+set", "+publish", "+config|get", "~x*", "&ch*"});
  EXPECT_REPLY(run({"get", "x1"}), N());
  EXPECT_REPLY(run({"hset", "x1", "f", "v"}), E("NOPERM this user has no permissions to run the 'hset' command"));
  EXPECT_REPLY(run({"config", "set", "maxmemory", "0"}),
               E("NOPERM this user has no permissions to run the 'config|set' command"));
  EXPECT_REPLY(run({"get", "y"}), E("NOPERM this user has no permissions to access one of the keys used as arguments"));
  EXPECT_REPLY(run({"publish", "other", "m"}),
               E("NOPERM this user has no permissions to access one of the channels used as arguments"));
  EXPECT_REPLY(run({"publish", "ch1", "m"}), I(0));
  // Unknown commands and wrong arities are answered before the ACL check, as in processCommand.
  EXPECT_REPLY(run({"nosuch"}), E("ERR unknown command 'nosuch', with args beginning with: "));
  EXPECT_REPLY(run({"hset", "x"}), E("ERR wrong number of arguments for 'hset' command"));
}

TEST_F(AclChecks, DryrunFollowsKeySpecsReadAndWriteAccess) {
  as_admin({"acl", "setuser", "k", "on", "nopass", "+@all", "%R~r*", "%W~w*", "~rw*", "&pub*"});
  auto dry = [&](std::initializer_list<std::string> args) {
    Command command{"acl", "dryrun", "k"};
    command.insert(command.end(), args);
    return as_admin_command(command);
  };
  EXPECT_REPLY(dry({"get", "r1"}), S("OK"));
  EXPECT_REPLY(dry({"set", "r1", "v"}), B("This user has no permissions to access the 'r1' key"));
  EXPECT_REPLY(dry({"set", "w1", "v"}), S("OK"));  // SET without GET only writes
  EXPECT_REPLY(dry({"set", "w1", "v", "get"}), B("This user has no permissions to access the 'w1' key"));
  EXPECT_REPLY(dry({"lmove", "r1", "w1", "left", "left"}), B("This user has no permissions to access the 'r1' key"));
  EXPECT_REPLY(dry({"copy", "r1", "w1"}), S("OK"));
  EXPECT_REPLY(dry({"exists", "zz"}), B("This user has no permissions to access the 'zz' key"));
  EXPECT_REPLY(dry({"subscribe", "pub1", "x"}), B("This user has no permissions to access the 'x' channel"));
  EXPECT_REPLY(dry({"psubscribe", "pub*"}), S("OK"));
  EXPECT_REPLY(dry({"psubscribe", "pub"}), B("This user has no permissions to access the 'pub' channel"));
  EXPECT_REPLY(dry({"eval", "return", "1", "1", "zz"}), B("This user has no permissions to access the '1' key"));
  EXPECT_REPLY(as_admin({"acl", "dryrun", "nobody", "get", "x"}), E("ERR User 'nobody' not found"));
  EXPECT_REPLY(dry({"nocmd", "x"}), E("ERR Command 'nocmd' not found"));
  EXPECT_REPLY(dry({"config", "foo"}), E("ERR Command 'config' not found"));
  EXPECT_REPLY(dry({"get"}), E("ERR wrong number of arguments for 'get' command"));
  as_admin({"acl", "setuser", "s", "on", "nopass", "+select|0", "~*"});
  EXPECT_REPLY(as_admin({"acl", "dryrun", "s", "select", "0"}), S("OK"));
  EXPECT_REPLY(as_admin({"acl", "dryrun", "s", "select", "1"}), B("This user has no permissions to run the 'select' command"));
}

TEST_F(AclChecks, QueueTimeRefusalAbortsExecAndExecChecksAgain) {
  login({"+multi", "+exec", "+get", "+set", "~*"});
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"hget", "h", "f"}), E("NOPERM this user has no permissions to run the 'hget' command"));
  EXPECT_REPLY(run({"exec"}), E("EXECABORT Transaction discarded because of previous errors."));
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"set", "k", "v"}), S("QUEUED"));
  EXPECT_REPLY(run({"get", "k"}), S("QUEUED"));
  as_admin({"acl", "setuser", "u", "-set"});
  EXPECT_REPLY(run({"exec"}),
               A({E("NOPERM ACLs rules changed between the moment the transaction was accumulated and the EXEC call. "
                    "This command is no longer allowed for the following reason: no permission to execute the "
                    "command or subcommand"),
                  N()}));
}

TEST_F(AclChecks, ScriptsRunAsTheirCallersUser) {
  login({"+@scripting", "+set", "~x*"});
  EXPECT_REPLY(eval("return redis.acl_check_cmd('set','xx',1)", {"xx"}), I(1));
  EXPECT_REPLY(eval("return redis.acl_check_cmd('hset','xx','f',1)", {"xx"}), N());
  EXPECT_REPLY(eval("return redis.acl_check_cmd('set','yy',1)"), N());
  EXPECT_EQ(eval("return redis.acl_check_cmd('invalid-cmd','arg')").text.rfind(
                "ERR Invalid command passed to redis.acl_check_cmd()", 0),
            0u);
  EXPECT_EQ(eval("return redis.call('get','x')").text.rfind(
                "ERR The user executing the script can't run this command or subcommand script:", 0),
            0u);
  EXPECT_REPLY(eval("return redis.pcall('set','yy',1)"),
               E("ERR The user executing the script can't access at least one of the keys mentioned in the command "
                 "arguments"));
  EXPECT_REPLY(eval("return redis.call('set','xa',1)"), S("OK"));
}

TEST_F(AclChecks, LogEntriesGroupAndReset) {
  login({"+get", "~x*"});
  run({"get", "y"});
  run({"get", "y"});
  run({"hget", "x", "f"});
  eval("return 1");
  run({"auth", "u", "whatever"});  // nopass: succeeds, no entry
  run({"auth", "nobody", "p"});
  const Reply log = as_admin({"acl", "log"});
  ASSERT_EQ(log.elements.size(), 4u) << to_string(log);
  auto field = [&](std::size_t entry, std::size_t index) { return log.elements[entry].elements[index]; };
  EXPECT_REPLY(field(0, 3), B("auth"));
  EXPECT_REPLY(field(0, 9), B("nobody"));
  EXPECT_REPLY(field(1, 7), B("eval"));
  EXPECT_REPLY(field(2, 7), B("hget"));
  EXPECT_REPLY(field(3, 1), I(2));  // the two GET y refusals: one entry counted twice
  EXPECT_REPLY(field(3, 3), B("key"));
  EXPECT_REPLY(field(3, 5), B("toplevel"));
  EXPECT_REPLY(field(3, 7), B("y"));
  EXPECT_REPLY(field(3, 9), B("u"));
  EXPECT_NE(to_string(field(3, 13)).find("cmd=get user=u"), std::string::npos) << to_string(field(3, 13));
  EXPECT_REPLY(as_admin({"acl", "log", "1"}).elements.size() == 1 ? S("one") : S("other"), S("one"));
  EXPECT_REPLY(as_admin({"acl", "log", "reset"}), S("OK"));
  EXPECT_REPLY(as_admin({"acl", "log"}), A({}));
}

TEST_F(AclChecks, DeletedUsersConnectionsAreClosed) {
  login({"+@all", "~*"});
  EXPECT_REPLY(run({"acl", "deluser", "u"}), I(1));
  EXPECT_TRUE(session.close_requested);
}

// Found by Redis's unit/acl and unit/acl-v2 (run with external:skip lifted): shard channels are channels, not
// keys; ZINTERCARD's keys follow numkeys; MEMORY USAGE names its key after the subcommand; CAT takes one
// argument at most; acllog-max-len bounds the log.
TEST_F(AclChecks, ShardChannelsNumkeysKeysSubcommandKeysAndLogLength) {
  as_admin({"acl", "setuser", "k", "on", "nopass", "+@all", "%R~read", "&ch"});
  auto dry = [&](std::initializer_list<std::string> args) {
    Command command{"acl", "dryrun", "k"};
    command.insert(command.end(), args);
    return as_admin_command(command);
  };
  EXPECT_REPLY(dry({"spublish", "x", "m"}), B("This user has no permissions to access the 'x' channel"));
  EXPECT_REPLY(dry({"ssubscribe", "ch"}), S("OK"));
  EXPECT_REPLY(dry({"zintercard", "2", "read", "write"}), B("This user has no permissions to access the 'write' key"));
  EXPECT_REPLY(dry({"memory", "usage", "nothing"}), B("This user has no permissions to access the 'nothing' key"));
  EXPECT_REPLY(as_admin({"acl", "cat", "a", "b"}),
               E("ERR unknown subcommand or wrong number of arguments for 'cat'. Try ACL HELP."));
  EXPECT_REPLY(as_admin({"config", "set", "acllog-max-len", "2"}), S("OK"));
  login({"+get", "~x*"});
  for (std::string key : {"a", "b", "c"}) run({"get", key});
  EXPECT_EQ(as_admin({"acl", "log"}).elements.size(), 2u);
}

}  // namespace
}  // namespace lockcheck::mock::testing
