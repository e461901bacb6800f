// The `script` variant takes the shapes production lock scripts return (SET's OK or nil, true/false, 1/0),
// and names a failing script by the user's file and line instead of Redis's "user_script:N" and SHA1
// (issue 24, item 12).
#include <gtest/gtest.h>

#include <string>

#include "core/simulate.hpp"
#include "core/user_scripts.hpp"
#include "count_lines.hpp"
#include "lockcheck/sha1.hpp"
#include "properties/history.hpp"

namespace lockcheck::sim {
namespace {

// As shipped in many services: acquire returns SET's own reply (OK, or nil when taken), release and renew
// return Lua booleans.
constexpr const char* kSetAcquire = "return redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])";
constexpr const char* kBooleanRelease = R"(if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1]) == 1
end
return false)";
constexpr const char* kBooleanRenew = R"(if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2]) == 1
end
return false)";
constexpr const char* kTrueAcquire = R"(if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return true end
return false)";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(ScriptContract, ProbeAcceptsTheShapesProductionScriptsReturn) {
  EXPECT_EQ(check_user_script("acquire", kSetAcquire), "");
  EXPECT_EQ(check_user_script("acquire", kTrueAcquire), "");
  EXPECT_EQ(check_user_script("release", kBooleanRelease), "");
  EXPECT_EQ(check_user_script("renew", kBooleanRenew), "");
  EXPECT_EQ(check_user_script("release", "return 0"), "");
  const std::string refused = check_user_script("release", "return 'yes'");
  EXPECT_TRUE(contains(refused, "the contract wants 1 or true (done), or 0, false or nil (not owned)")) << refused;
}

TEST(ScriptContract, ErrorsNameTheFileAndLine) {
  const std::string runtime = check_user_script("acquire", "local x\nreturn x + 1", "scripts/acquire.lua");
  EXPECT_EQ(runtime, "failed on a probe call: ERR scripts/acquire.lua:2: attempt to perform arithmetic on local 'x' "
                     "(a nil value) (at scripts/acquire.lua:2)");
  const std::string compile = check_user_script("renew", "return 1 +", "renew.lua");
  EXPECT_TRUE(contains(compile, "ERR Error compiling script (new function): renew.lua:1: ")) << compile;
  EXPECT_FALSE(contains(compile + runtime, "user_script")) << compile << runtime;
  const std::string call = check_user_script("release", "\nreturn redis.call('incr', 'x', 'y')", "r.lua");
  EXPECT_EQ(call, "failed on a probe call: ERR Wrong number of args calling Redis command from script (at r.lua:2)");
}

TEST(ScriptContract, NameScriptInErrorKeepsOtherText) {
  const std::string sha(40, 'a');
  EXPECT_EQ(name_script_in_error("WRONGTYPE Operation against a key holding the wrong kind of value script: " + sha +
                                     ", on @user_script:3.",
                                 "renew.lua"),
            "WRONGTYPE Operation against a key holding the wrong kind of value (at renew.lua:3)");
  EXPECT_EQ(name_script_in_error("ERR plain", "renew.lua"), "ERR plain");
  EXPECT_EQ(name_script_in_error("ERR my script: not a sha", "a.lua"), "ERR my script: not a sha");
}

SimConfig shipped_scripts() {
  SimConfig config;
  config.scenario = "script-contract-test";
  config.variant = "script";
  config.renewal.watchdog = true;
  config.lock.ttl = Millis(500);
  config.duration_us = 4000000;
  config.workload.hold_min_us = 600000;
  config.workload.hold_max_us = 900000;
  config.workload.wait_us = 3000000;
  config.scripts = UserScripts{kSetAcquire, kBooleanRelease, kBooleanRenew};
  config.scripts.release_name = "lua/release.lua";
  return config;
}

TEST(ScriptContract, ShippedShapesLockReleaseAndRenew) {
  const RunResult run = simulate(shipped_scripts(), 1);
  EXPECT_EQ(count_lines(run, R"("error":true)"), 0u) << "no reply was taken for a contract breach";
  EXPECT_GT(count_lines(run, R"("type":"ok","process":0,"f":"acquire")"), 1u) << "SET's OK counts as acquired";
  EXPECT_GT(count_lines(run, R"("result":"released")"), 1u) << "release.lua's true counts as released";
  EXPECT_GT(count_lines(run, R"("type":"ok","process":0,"f":"renew")"), 1u) << "renew.lua's true counts as renewed";
}

TEST(ScriptContract, WitnessesNameTheScriptFile) {
  const RunResult run = simulate(shipped_scripts(), 1);
  const properties::History history = properties::parse_history(run.history.jsonl());
  EXPECT_EQ(history.meta.script_files.at(sha1_hex(kBooleanRelease)), "lua/release.lua");
  EXPECT_EQ(history.meta.script_files.at(sha1_hex(kSetAcquire)), "acquire.lua") << "the default name";
  std::size_t named = 0;
  for (const properties::Event& event : history.events) {
    const auto* server = std::get_if<properties::ServerEvent>(&event);
    if (server == nullptr || server->script.empty()) continue;
    EXPECT_TRUE(server->script == "acquire.lua" || server->script == "lua/release.lua" || server->script == "renew.lua")
        << server->script;
    ++named;
  }
  EXPECT_GT(named, 0u);
}

TEST(ScriptContract, AFinishedRunEndsWithTheClosingLine) {
  const RunResult run = simulate(shipped_scripts(), 1);
  EXPECT_EQ(run.history.lines().back(), R"({"i":)" + std::to_string(run.history.lines().size() - 1) +
                                           R"(,"t":4000000,"kind":"end"})");
  EXPECT_TRUE(properties::parse_history(run.history.jsonl()).closed);
  SimConfig limited = shipped_scripts();
  limited.max_events = 200;
  const RunResult cut = simulate(limited, 1);
  EXPECT_TRUE(cut.hit_event_limit);
  EXPECT_FALSE(properties::parse_history(cut.history.jsonl()).closed) << "a run stopped early is not closed";
}

}  // namespace
}  // namespace lockcheck::sim
