// A node makes its Lua state on the first command that needs one: a node that never runs a script never pays
// for the sandbox, and one that does reads the same (replies, used_memory_lua, used_memory) as a node that made
// its state at construction (a small script memory limit still does, see lua_engine.cpp).
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "lockcheck/sha1.hpp"
#include "mock_test_support.hpp"
#include "redis/scripting/lua_engine.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected))

const std::string kLibrary = "#!lua name=lib\nredis.register_function('hello', function() return 'hi' end)";

// The same commands on a lazy node (the default script memory limit) and on an eager one (a 1 MiB limit, which
// also shows the sandbox's setup fits in 1 MiB): replies and memory figures match after each.
class LazyLuaState : public ::testing::Test {
 protected:
  Node lazy{NodeOptions{.clock = [] { return std::int64_t{1'700'000'000'000}; }}};
  Node eager{NodeOptions{.clock = [] { return std::int64_t{1'700'000'000'000}; }, .script_memory_limit_bytes = 1u << 20}};
  Session lazy_session{.client_id = 1};
  Session eager_session{.client_id = 1};

  void run_on_both(const Command& command) {
    SCOPED_TRACE(command[0] + (command.size() > 1 ? " " + command[1] : ""));
    EXPECT_REPLY(lazy.execute(command, lazy_session), eager.execute(command, eager_session));
    expect_same_memory();
  }
  void expect_same_memory() {
    for (const char* field : {"used_memory_lua", "used_memory", "number_of_cached_scripts"}) {
      EXPECT_EQ(info_field(lazy, lazy_session, field), info_field(eager, eager_session, field)) << field;
    }
  }
};

TEST_F(LazyLuaState, ANodeWithoutScriptsNeverMakesOne) {
  EXPECT_TRUE(eager.lua().started());
  for (const Command& command : {Command{"set", "k", "v", "px", "1000"}, Command{"get", "k"}, Command{"info"},
                                 Command{"script", "exists", "0123456789012345678901234567890123456789"},
                                 Command{"evalsha", "0123456789012345678901234567890123456789", "0"},
                                 Command{"eval", "return 1 // 2", "0"}, Command{"function", "list"},
                                 Command{"function", "dump"}, Command{"function", "flush"}, Command{"fcall", "f", "0"},
                                 Command{"script", "flush"}, Command{"config", "set", "maxmemory", "100mb"},
                                 Command{"set", "k2", "v"}}) {
    run_on_both(command);
  }
  EXPECT_FALSE(lazy.lua().started());
}

TEST_F(LazyLuaState, AScriptReadsTheSameAsOnANodeThatSetUpAtConstruction) {
  expect_same_memory();
  run_on_both({"eval", "return redis.call('set', KEYS[1], ARGV[1])", "1", "k", "v"});
  EXPECT_TRUE(lazy.lua().started());
  run_on_both({"script", "flush"});
  run_on_both({"eval", "return {1, 'two', cjson.encode({3})}", "0"});
}

// SCRIPT FLUSH (or a restart) before any script: the state made later has been collected as the eager one
// was. Once is owed to the later state; twice differs from once (the next load reads 64 bytes apart), so a
// second flush makes the state.
TEST_F(LazyLuaState, FlushesBeforeTheFirstScriptCount) {
  run_on_both({"script", "flush"});
  EXPECT_FALSE(lazy.lua().started());
  run_on_both({"script", "load", "return 1"});
  EXPECT_TRUE(lazy.lua().started());
}

TEST_F(LazyLuaState, TwoFlushesBeforeTheFirstScriptCount) {
  run_on_both({"script", "flush"});
  run_on_both({"script", "flush"});
  run_on_both({"script", "flush"});
  run_on_both({"script", "load", "return ARGV[1]"});
  EXPECT_TRUE(lazy.lua().started());
  run_on_both({"evalsha", sha1_hex("return ARGV[1]"), "0", "x"});
}

TEST_F(LazyLuaState, FunctionLibrariesLoadIntoANewState) {
  run_on_both({"function", "load", kLibrary});
  run_on_both({"fcall", "hello", "0"});
  const std::string dump = lazy.execute({"function", "dump"}, lazy_session).text;
  Node restored{NodeOptions{.clock = [] { return std::int64_t{0}; }}};
  Session session{.client_id = 1};
  EXPECT_FALSE(restored.lua().started());
  EXPECT_REPLY(restored.execute({"function", "restore", dump}, session), S("OK"));
  EXPECT_REPLY(restored.execute({"fcall", "hello", "0"}, session), B("hi"));
  // A snapshot's libraries (a replica's full sync, a restart from RDB) load the same way.
  Node replica{NodeOptions{.clock = [] { return std::int64_t{0}; }}};
  replica.restore(lazy.snapshot());
  EXPECT_TRUE(replica.lua().started());
  EXPECT_REPLY(replica.execute({"fcall", "hello", "0"}, session), B("hi"));
}

}  // namespace
}  // namespace lockcheck::mock::testing
