// INFO errorstats, total_error_replies and commandstats' rejected_calls/failed_calls, counted where
// redis-server 7.0.15 counts them (the same sequences gave these figures there, compared with redis-cli).
#include <gtest/gtest.h>

#include <string>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

class ErrorStatsTest : public ::testing::Test, public MockFixture {
 protected:
  std::string info(const std::string& section) { return run({"info", section}).text; }
  // The rest of the INFO line starting with `prefix` (after it, up to the line's end), or "" without one.
  // Plain string search: std::regex trips GCC 12's -Wmaybe-uninitialized in the -O1 sanitizer builds.
  static std::string line_after(const std::string& text, const std::string& prefix) {
    const std::size_t at = text.find("\r\n" + prefix);
    if (at == std::string::npos) return "";
    const std::size_t from = at + 2 + prefix.size();
    return text.substr(from, text.find("\r\n", from) - from);
  }
  // "count=N" of errorstat_<code>, or "" when the code never occurred.
  std::string errorstat(const std::string& code) { return line_after(info("errorstats"), "errorstat_" + code + ":"); }
  // "calls=N,rejected_calls=R,failed_calls=F" of cmdstat_<name> (usec figures left out), or "".
  std::string cmdstat(const std::string& name) {
    const std::string line = line_after(info("commandstats"), "cmdstat_" + name + ":");
    if (line.empty()) return "";
    const std::size_t calls_end = line.find(',');
    const std::size_t rest = line.find(',', line.find("usec_per_call="));
    if (calls_end == std::string::npos || rest == std::string::npos) return "";
    return line.substr(0, calls_end) + line.substr(rest);
  }
  std::string total_errors() { return line_after(info("stats"), "total_error_replies:"); }
};

TEST_F(ErrorStatsTest, ScriptErrorReplyIsCountedUnderItsCode) {
  run({"config", "resetstat"});
  EXPECT_EQ(run({"eval", "return redis.error_reply('MY_ERR_CODE custom msg')", "0"}).text, "MY_ERR_CODE custom msg");
  EXPECT_EQ(errorstat("MY_ERR_CODE"), "count=1");
  run({"config", "resetstat"});
  run({"eval", "return redis.error_reply('')", "0"});
  EXPECT_EQ(errorstat("ERR"), "count=1");
  EXPECT_EQ(errorstat("MY_ERR_CODE"), "");  // RESETSTAT cleared it
  run({"eval", "return redis.status_reply('MY_OK_CODE fine')", "0"});
  EXPECT_EQ(total_errors(), "1");
}

TEST_F(ErrorStatsTest, AScriptsFailingCommandCountsOnceAndFailsBoth) {
  run({"config", "resetstat"});
  EXPECT_TRUE(run({"eval", "return redis.call('select', 99)", "0"}).text.starts_with("ERR DB index is out of range"));
  EXPECT_EQ(errorstat("ERR"), "count=1");
  EXPECT_EQ(total_errors(), "1");
  EXPECT_EQ(cmdstat("select"), "calls=1,rejected_calls=0,failed_calls=1");
  EXPECT_EQ(cmdstat("eval"), "calls=1,rejected_calls=0,failed_calls=1");
  run({"config", "resetstat"});
  EXPECT_EQ(run({"eval", "local t = redis.pcall('select', 99) return 1", "0"}).integer, 1);
  EXPECT_EQ(errorstat("ERR"), "count=1");
  EXPECT_EQ(cmdstat("eval"), "calls=1,rejected_calls=0,failed_calls=0");
}

TEST_F(ErrorStatsTest, RefusedCommandsAreRejectedNotCalled) {
  run({"config", "resetstat"});
  run({"eval_ro", "return redis.call('set', 'x', 'y')", "1", "x"});
  EXPECT_EQ(errorstat("ERR"), "count=1");
  EXPECT_EQ(cmdstat("set"), "calls=0,rejected_calls=1,failed_calls=0");
  EXPECT_EQ(cmdstat("eval_ro"), "calls=1,rejected_calls=0,failed_calls=1");
  run({"config", "resetstat"});
  run({"config", "set", "maxmemory", "1"});
  EXPECT_EQ(run({"eval", "return redis.pcall('set', 'x', 'y')", "1", "x"}).text,
            "OOM command not allowed when used memory > 'maxmemory'.");
  EXPECT_EQ(errorstat("OOM"), "count=1");
  EXPECT_EQ(total_errors(), "1");
  EXPECT_EQ(cmdstat("set"), "calls=0,rejected_calls=1,failed_calls=0");
  EXPECT_EQ(cmdstat("eval"), "calls=1,rejected_calls=0,failed_calls=1");
  run({"config", "set", "maxmemory", "0"});
  run({"config", "resetstat"});
  run({"get"});
  run({"nosuch"});
  run({"multi"});
  run({"set", "a"});
  EXPECT_EQ(run({"exec"}).text, "EXECABORT Transaction discarded because of previous errors.");
  EXPECT_EQ(errorstat("ERR"), "count=3");
  EXPECT_EQ(errorstat("EXECABORT"), "count=1");
  EXPECT_EQ(cmdstat("get"), "calls=0,rejected_calls=1,failed_calls=0");
  EXPECT_EQ(cmdstat("exec"), "calls=1,rejected_calls=0,failed_calls=1");
}

TEST_F(ErrorStatsTest, QueuedCommandsRunByExecAreCalledAndMayFail) {
  run({"config", "resetstat"});
  run({"set", "a", "b"});
  run({"multi"});
  run({"lpush", "a", "x"});
  run({"exec"});
  EXPECT_EQ(errorstat("WRONGTYPE"), "count=1");
  EXPECT_EQ(cmdstat("lpush"), "calls=1,rejected_calls=0,failed_calls=1");
  EXPECT_EQ(cmdstat("exec"), "calls=1,rejected_calls=0,failed_calls=0");
}

}  // namespace
}  // namespace lockcheck::mock::testing
