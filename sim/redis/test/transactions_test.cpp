// MULTI/EXEC/DISCARD/WATCH/UNWATCH as redis-server 7.0.15 answers them (texts checked with redis-cli).
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class Transactions : public ::testing::Test, public MockFixture {
 protected:
  Session other{.client_id = 2};
  Reply run_other(std::initializer_list<std::string> args) { return node.execute(Command(args), other); }
};

TEST_F(Transactions, QueuedCommandsRunOnlyAtExecAndTogether) {
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"set", "k", "v"}), S("QUEUED"));
  EXPECT_REPLY(run({"incr", "n"}), S("QUEUED"));
  // Nothing ran yet: another client sees neither write.
  EXPECT_REPLY(run_other({"get", "k"}), N());
  EXPECT_REPLY(run_other({"exists", "n"}), I(0));
  EXPECT_REPLY(run({"exec"}), A({S("OK"), I(1)}));
  EXPECT_REPLY(run_other({"get", "k"}), B("v"));
  EXPECT_REPLY(run({"exec"}), E("ERR EXEC without MULTI"));
}

// Found by the differential test after the merge: Redis checks a container command's subcommand (existence,
// then arity) before queueing it, so a bad one is refused at once and EXEC aborts.
TEST_F(Transactions, BadSubcommandIsRefusedWhileQueueingAndAbortsExec) {
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"config", "nope"}), E("ERR unknown subcommand 'nope'. Try CONFIG HELP."));
  EXPECT_REPLY(run({"client", "setname"}), E("ERR wrong number of arguments for 'client|setname' command"));
  EXPECT_REPLY(run({"config", "get", "maxmemory"}), S("QUEUED"));
  EXPECT_REPLY(run({"exec"}), E("EXECABORT Transaction discarded because of previous errors."));
  EXPECT_REPLY(run({"Script", "nope"}), E("ERR unknown subcommand 'nope'. Try SCRIPT HELP."));
}

TEST_F(Transactions, EmptyTransactionAndDiscard) {
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"exec"}), A({}));
  EXPECT_REPLY(run({"discard"}), E("ERR DISCARD without MULTI"));
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"set", "k", "v"}), S("QUEUED"));
  EXPECT_REPLY(run({"discard"}), S("OK"));
  EXPECT_REPLY(run({"get", "k"}), N());
}

TEST_F(Transactions, QueueingErrorsAbortExecButRuntimeErrorsDoNot) {
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"multi"}), E("ERR MULTI calls can not be nested"));
  EXPECT_REPLY(run({"watch", "k"}), E("ERR WATCH inside MULTI is not allowed"));
  EXPECT_REPLY(run({"set", "k", "v"}), S("QUEUED"));
  EXPECT_REPLY(run({"foo"}), E("ERR unknown command 'foo', with args beginning with: "));
  EXPECT_REPLY(run({"get"}), E("ERR wrong number of arguments for 'get' command"));
  EXPECT_REPLY(run({"exec"}), E("EXECABORT Transaction discarded because of previous errors."));
  EXPECT_REPLY(run({"get", "k"}), N());

  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"set", "a", "1"}), S("QUEUED"));
  EXPECT_REPLY(run({"lpush", "a", "x"}), S("QUEUED"));
  EXPECT_REPLY(run({"incr", "a"}), S("QUEUED"));
  EXPECT_REPLY(run({"exec"}), A({S("OK"), E("WRONGTYPE Operation against a key holding the wrong kind of value"), I(2)}));
  // A nested MULTI or a WATCH inside MULTI is refused without aborting the transaction.
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"multi"}), E("ERR MULTI calls can not be nested"));
  EXPECT_REPLY(run({"get", "a"}), S("QUEUED"));
  EXPECT_REPLY(run({"exec"}), A({B("2")}));
}

TEST_F(Transactions, WatchAbortsExecWhenTheKeyChanges) {
  EXPECT_REPLY(run({"set", "k", "1"}), S("OK"));
  EXPECT_REPLY(run({"watch", "k"}), S("OK"));
  EXPECT_REPLY(run_other({"set", "k", "1"}), S("OK"));  // same value still counts as a change
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"del", "k"}), S("QUEUED"));
  EXPECT_TRUE(run({"exec"}).is_nil());
  EXPECT_REPLY(run({"get", "k"}), B("1"));

  // After EXEC (even an aborted one) the watch is gone.
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"del", "k"}), S("QUEUED"));
  EXPECT_REPLY(run({"exec"}), A({I(1)}));
}

TEST_F(Transactions, WatchIsKeptByUnchangedKeysAndDroppedByUnwatch) {
  EXPECT_REPLY(run({"set", "k", "1"}), S("OK"));
  EXPECT_REPLY(run({"watch", "k", "absent"}), S("OK"));
  EXPECT_REPLY(run_other({"get", "k"}), B("1"));
  EXPECT_REPLY(run_other({"set", "other", "1"}), S("OK"));
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"get", "k"}), S("QUEUED"));
  EXPECT_REPLY(run({"exec"}), A({B("1")}));

  EXPECT_REPLY(run({"watch", "k"}), S("OK"));
  EXPECT_REPLY(run({"unwatch"}), S("OK"));
  EXPECT_REPLY(run_other({"set", "k", "2"}), S("OK"));
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"get", "k"}), S("QUEUED"));
  EXPECT_REPLY(run({"exec"}), A({B("2")}));
}

TEST_F(Transactions, WatchIsBrokenByExpiryAndByFlush) {
  EXPECT_REPLY(run({"set", "k", "1", "px", "100"}), S("OK"));
  EXPECT_REPLY(run({"watch", "k"}), S("OK"));
  now_ms += 101;  // expired but not yet reclaimed: EXEC still sees the change
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"set", "k", "mine"}), S("QUEUED"));
  EXPECT_TRUE(run({"exec"}).is_nil());

  EXPECT_REPLY(run({"set", "k", "1", "px", "100"}), S("OK"));
  EXPECT_REPLY(run({"watch", "k"}), S("OK"));
  now_ms += 101;
  EXPECT_EQ(node.expire_some(10), 1u);  // reclaimed by active expiry
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"set", "k", "mine"}), S("QUEUED"));
  EXPECT_TRUE(run({"exec"}).is_nil());

  EXPECT_REPLY(run({"set", "k", "1"}), S("OK"));
  EXPECT_REPLY(run({"watch", "k", "absent"}), S("OK"));
  EXPECT_REPLY(run_other({"flushall"}), S("OK"));
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"set", "k", "mine"}), S("QUEUED"));
  EXPECT_TRUE(run({"exec"}).is_nil());

  // A key already expired when watched, then reclaimed, is no change (Redis 7.0's watched-key rule).
  EXPECT_REPLY(run({"set", "k", "1", "px", "100"}), S("OK"));
  now_ms += 101;
  EXPECT_REPLY(run({"watch", "k"}), S("OK"));
  EXPECT_REPLY(run_other({"get", "k"}), N());
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"set", "k", "mine"}), S("QUEUED"));
  EXPECT_REPLY(run({"exec"}), A({S("OK")}));
}

TEST_F(Transactions, NotCallableFromScripts) {
  for (const char* call : {"'multi'", "'exec'", "'discard'", "'watch', 'k'", "'unwatch'"}) {
    const Reply reply = eval(std::string("return redis.call(") + call + ")");
    EXPECT_EQ(reply.text.rfind("ERR This Redis command is not allowed from script", 0), 0u) << call << ": " << to_string(reply);
  }
}

}  // namespace
}  // namespace lockcheck::mock::testing
