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
#include "properties/script_contract.hpp"

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

constexpr const char* kSetRenew = R"(if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('set', KEYS[1], ARGV[1], 'XX', 'PX', ARGV[2])
end
return 0)";

TEST(ScriptContract, ProbeAcceptsTheShapesProductionScriptsReturn) {
  EXPECT_EQ(check_user_script("acquire", kSetAcquire), "");
  EXPECT_EQ(check_user_script("acquire", kTrueAcquire), "");
  EXPECT_EQ(check_user_script("release", kBooleanRelease), "");
  EXPECT_EQ(check_user_script("renew", kBooleanRenew), "");
  EXPECT_EQ(check_user_script("renew", kSetRenew), "") << "SET's OK is yes from renew as from acquire";
  const std::string refused = check_user_script("release", "return 'yes'");
  EXPECT_EQ(refused, "on a probe call (releasing the lock acquire had just taken): release.lua broke the lock script "
                     "contract: it returned \"yes\"; the contract wants 1, true or OK (yes), or 0, false or nil (no)");
}

// A renew with PEXPIRE's GT option (extend only, never shorten) answers 0 when the new deadline is not later
// than the key's: the probe renews a third of the TTL after the acquire, as the watchdog does, not in the same
// millisecond, where the deadline would be the same and the correct script refused.
TEST(ScriptContract, ProbeRenewsLaterThanTheAcquireSoAnExtendOnlyRenewSaysYes) {
  constexpr const char* kGreaterRenew = R"(if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2], 'GT')
end
return 0)";
  EXPECT_EQ(check_user_script("renew", kGreaterRenew), "");
}

// One answer function for the three scripts: the same shapes mean the same thing whichever script gave them.
TEST(ScriptContract, OneAnswerForAcquireReleaseAndRenew) {
  EXPECT_EQ(script_answer(Reply::integer_reply(1)), ScriptAnswer::yes);
  EXPECT_EQ(script_answer(Reply::ok()), ScriptAnswer::yes);
  EXPECT_EQ(script_answer(Reply::boolean(true)), ScriptAnswer::yes);
  EXPECT_EQ(script_answer(Reply::integer_reply(0)), ScriptAnswer::no);
  EXPECT_EQ(script_answer(Reply::nil()), ScriptAnswer::no);
  EXPECT_EQ(script_answer(Reply::boolean(false)), ScriptAnswer::no);
  EXPECT_EQ(script_answer(Reply::integer_reply(2)), ScriptAnswer::outside_contract);
  EXPECT_EQ(script_answer(Reply::status("QUEUED")), ScriptAnswer::outside_contract);
  EXPECT_EQ(script_answer(Reply::bulk("1")), ScriptAnswer::outside_contract);
}

// A release that answers 2 when it releases is refused before any run: the probe releases a lock it holds.
TEST(ScriptContract, ProbeRefusesAReleaseAnsweringTwoWhenItReleases) {
  const std::string refused = check_user_script("release", R"(if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('del', KEYS[1])
  return 2
end
return 0)", "lua/release.lua");
  EXPECT_EQ(refused, "on a probe call (releasing the lock acquire had just taken): lua/release.lua broke the lock "
                     "script contract: it returned (integer) 2; the contract wants 1, true or OK (yes), or 0, false "
                     "or nil (no)");
}

// nil from acquire is a legitimate "not acquired", but on a free key a correct acquire takes the lock: one
// that answers nil there never acquires (the usual cause: SET without `return`).
TEST(ScriptContract, ProbeRefusesAnAcquireThatNeverAcquires) {
  const std::string refused = check_user_script("acquire", "redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])");
  EXPECT_EQ(refused, "acquire.lua answered (nil) on a probe call (acquiring a free key), where it must answer yes "
                     "(1, true or OK); a script with no `return` answers nil");
}

TEST(ScriptContract, ProbeRefusesAReleaseOrRenewThatNeverSaysYes) {
  const std::string release = check_user_script("release", "redis.call('del', KEYS[1])");
  EXPECT_TRUE(contains(release, "release.lua answered (nil) on a probe call (releasing the lock acquire had just taken)"))
      << release;
  const std::string renew = check_user_script("renew", "return 0");
  EXPECT_TRUE(contains(renew, "renew.lua answered (integer) 0 on a probe call (renewing the lock acquire had just taken)"))
      << renew;
}

// A no is the lock's own behaviour once the key acquire made is gone (here acquire sets none): a run judges it.
TEST(ScriptContract, ProbeLeavesANoWithoutTheKeyToTheRun) {
  UserScripts scripts{"return 1", "return 0", "return 0"};
  EXPECT_EQ(check_user_scripts(scripts), std::nullopt);
}

// Branches the probe reaches only with another holder's token are probed too.
TEST(ScriptContract, ProbeRefusesARenewAnsweringTwoForAnotherHolder) {
  const std::string refused = check_user_script("renew", R"(if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
if redis.call('exists', KEYS[1]) == 1 then return 2 end
return 0)");
  EXPECT_TRUE(contains(refused, "on a probe call (renewing a lock another token holds): renew.lua broke the lock script "
                                "contract: it returned (integer) 2")) << refused;
}

TEST(ScriptContract, ErrorsNameTheFileAndLine) {
  const std::string runtime = check_user_script("acquire", "local x\nreturn x + 1", "scripts/acquire.lua");
  EXPECT_EQ(runtime, "failed on a probe call (acquiring a free key): scripts/acquire.lua:2 broke the lock script "
                     "contract: it failed with \"ERR scripts/acquire.lua:2: attempt to perform arithmetic on local 'x' "
                     "(a nil value) (at scripts/acquire.lua:2)\"; the contract wants 1, true or OK (yes), or 0, false "
                     "or nil (no)");
  const std::string compile = check_user_script("renew", "return 1 +", "renew.lua");
  EXPECT_TRUE(contains(compile, "ERR Error compiling script (new function): renew.lua:1: ")) << compile;
  EXPECT_FALSE(contains(compile + runtime, "user_script")) << compile << runtime;
  const std::string call = check_user_script("release", "\nreturn redis.call('incr', 'x', 'y')", "r.lua");
  EXPECT_TRUE(contains(call, "r.lua:2 broke the lock script contract: it failed with \"ERR Wrong number of args "
                             "calling Redis command from script (at r.lua:2)\"")) << call;
}

// An error the script raised is its own breach, with its line; a refusal of the server's is the deployment's.
TEST(ScriptContract, AnErrorTheScriptRaisedBreaksTheContract) {
  const std::string sha(40, 'a');
  EXPECT_EQ(script_contract_breach(Reply::error("ERR user_script:3: boom script: " + sha + ", on @user_script:3."),
                                   "release.lua"),
            "release.lua:3 broke the lock script contract: it failed with \"ERR release.lua:3: boom (at release.lua:3)\"; "
            "the contract wants 1, true or OK (yes), or 0, false or nil (no)");
  EXPECT_EQ(script_contract_breach(
                Reply::error("READONLY You can't write against a read only replica. script: " + sha + ", on @user_script:1."),
                "release.lua"),
            "");
  EXPECT_EQ(script_contract_breach(Reply::error("CROSSSLOT Keys in request don't hash to the same slot"), "a.lua"), "");
  EXPECT_EQ(script_contract_breach(Reply::integer_reply(0), "a.lua"), "");
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

RunConfig shipped_scripts() {
  RunConfig config;
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

// SET ... XX PX renews and answers OK, as SET NX PX acquires and answers OK: the three scripts share one
// contract, so a renew.lua returning SET's own reply renews instead of becoming an unknown outcome.
TEST(ScriptContract, RenewAnsweringSetsOkRenews) {
  RunConfig config = shipped_scripts();
  config.scripts.renew = R"(if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('set', KEYS[1], ARGV[1], 'XX', 'PX', ARGV[2])
end
return 0)";
  const RunResult run = simulate(config, 1);
  EXPECT_EQ(count_lines(run, "broke the lock script contract"), 0u);
  EXPECT_EQ(count_lines(run, R"("result":"unknown")"), 0u) << "no fault here: every renewal has a known outcome";
  EXPECT_GT(count_lines(run, R"("type":"ok","process":0,"f":"renew")"), 1u) << "SET's OK counts as renewed";
}

// Answers 2 once less than 600 ms of the TTL is left: never on the probe (its TTL is 1000 ms, and its renew
// comes 333 ms in, with 667 ms left), always in these runs (TTL 500 ms). `what` is the script's real work.
std::string answers_two_near_expiry(const std::string& what) {
  return "if redis.call('get', KEYS[1]) == ARGV[1] then\n  local late = redis.call('pttl', KEYS[1]) < 600\n  " + what +
         "\n  if late then return 2 end\n  return 1\nend\nreturn 0";
}

// A breach the probe cannot reach is in the history in the words the checkers look for
// (properties/script_contract.hpp), for a release (a server error) as for a renewal (an unknown outcome).
TEST(ScriptContract, ABreachInARunIsFoundInItsHistory) {
  RunConfig release_breaks = shipped_scripts();
  release_breaks.scripts.release = answers_two_near_expiry("redis.call('del', KEYS[1])");
  ASSERT_EQ(check_user_scripts(release_breaks.scripts), std::nullopt) << "the probe cannot see this one";
  const auto released = properties::first_script_contract_breach(
      properties::parse_history(simulate(release_breaks, 1).history.jsonl()));
  ASSERT_TRUE(released.has_value());
  EXPECT_TRUE(contains(released->detail, "ERR lua/release.lua broke the lock script contract: it returned (integer) 2"))
      << released->detail;

  RunConfig renew_breaks = shipped_scripts();
  renew_breaks.scripts.renew = answers_two_near_expiry("redis.call('pexpire', KEYS[1], ARGV[2])");
  ASSERT_EQ(check_user_scripts(renew_breaks.scripts), std::nullopt);
  const auto renewed =
      properties::first_script_contract_breach(properties::parse_history(simulate(renew_breaks, 1).history.jsonl()));
  ASSERT_TRUE(renewed.has_value());
  EXPECT_TRUE(contains(renewed->detail, "renew of lock 'lock' failed: ERR renew.lua broke the lock script contract: it "
                                        "returned (integer) 2")) << renewed->detail;
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
  RunConfig limited = shipped_scripts();
  limited.max_events = 200;
  const RunResult cut = simulate(limited, 1);
  EXPECT_TRUE(cut.hit_event_limit);
  EXPECT_FALSE(properties::parse_history(cut.history.jsonl()).closed) << "a run stopped early is not closed";
}

}  // namespace
}  // namespace lockcheck::sim
