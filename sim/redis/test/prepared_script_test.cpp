// A script body is prepared once per process and every node loads its bytecode: a node reads the same (replies,
// used_memory_lua, used_memory) whether this process prepared the body long ago or on that node's first EVAL,
// so a seed replays byte for byte in a fresh process and deep into a search alike.
#include <gtest/gtest.h>

#include <string>

#include "mock_test_support.hpp"
#include "redis/scripting/prepared_script.hpp"

namespace lockcheck::mock::testing {
namespace {

TEST(PreparedScript, ABodyIsPreparedOnceAndKept) {
  const std::string body = "return redis.call('get', KEYS[1]) -- prepared_script_test: kept";
  const auto first = prepared_script(body);
  EXPECT_EQ(prepared_script(body), first) << "the same body, prepared again";
  EXPECT_FALSE(first->refusal.has_value());
  EXPECT_FALSE(first->bytecode.empty());
}

TEST(PreparedScript, RefusalsAreRedisErrorTexts) {
  EXPECT_EQ(prepared_script("#!python\nreturn 1")->refusal, "ERR Unexpected engine in script shebang: #!python");
  const auto shebang = prepared_script("#!lua flags=no-writes\nreturn 1");
  EXPECT_FALSE(shebang->refusal.has_value());
  EXPECT_TRUE(shebang->shebang && shebang->no_writes && !shebang->allow_oom);
  const auto broken = prepared_script("return (");
  ASSERT_TRUE(broken->refusal.has_value());
  EXPECT_EQ(broken->refusal->rfind(std::string(kScriptCompileError) + "user_script:1:", 0), 0u) << *broken->refusal;
  EXPECT_TRUE(broken->bytecode.empty());
}

TEST(PreparedScript, ANodeReadsTheSameWhetherTheBodyWasPreparedBeforeOrNot) {
  const auto clock = [] { return std::int64_t{1'700'000'000'000}; };
  Node first{NodeOptions{.clock = clock}};
  Node second{NodeOptions{.clock = clock}};
  Session first_session{.client_id = 1};
  Session second_session{.client_id = 1};
  // A body no other test sends: `first` prepares it, `second` finds it prepared.
  const Command eval{"eval", "local v = redis.call('incr', KEYS[1]) return {v, 'prepared_script_test'}", "1", "k"};
  EXPECT_EQ(to_string(first.execute(eval, first_session)), to_string(second.execute(eval, second_session)));
  for (const char* field : {"used_memory_lua", "used_memory", "number_of_cached_scripts"}) {
    EXPECT_EQ(info_field(first, first_session, field), info_field(second, second_session, field)) << field;
  }
}

}  // namespace
}  // namespace lockcheck::mock::testing
