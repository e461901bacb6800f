// [lock] watchdog (a watchdog over any variant that can renew) and [workload] fencing's modes: what the
// loader accepts, what it refuses, and where it says so.
#include <gtest/gtest.h>

#include "scenario/scenario.hpp"
#include "scenario_error.hpp"

namespace lockcheck::sim {
namespace {

using testing::error_of;

std::string with_watchdog(const std::string& variant) {
  return "variant = \"" + variant + "\"\n[lock]\nttl_ms = 3000\nwatchdog = true\n";
}

constexpr std::string_view kScriptWithRenew = R"(variant = "script"
[lock]
watchdog = true
[scripts]
acquire = "a.lua"
release = "r.lua"
renew = "n.lua"
)";

TEST(ScenarioWatchdog, OffByDefault) {
  EXPECT_FALSE(parse_scenario("", "x.toml").config.renewal.watchdog);
  EXPECT_FALSE(parse_scenario("[lock]\nwatchdog = false\n", "x.toml").config.renewal.watchdog);
}

TEST(ScenarioWatchdog, WrapsAnyVariantThatCanRenew) {
  for (const char* variant : {"token", "fenced", "reentrant-hash", "redlock", "rw-owned", "token-wait"}) {
    const Scenario s = parse_scenario(with_watchdog(variant), "x.toml");
    EXPECT_TRUE(s.config.renewal.watchdog) << variant;
    EXPECT_EQ(s.config.variant, variant) << "the inner variant stays the variant";
  }
  const Scenario script = parse_scenario(kScriptWithRenew, "/tmp/dir/x.toml");
  EXPECT_TRUE(script.config.renewal.watchdog);
  EXPECT_EQ(script.scripts.renew, "/tmp/dir/n.lua");
}

TEST(ScenarioWatchdog, RenewalOptionsApplyToTheWrappedVariant) {
  const Scenario s = parse_scenario("[lock]\nwatchdog = true\nrenew_divisor = 4\nmax_hold_ms = 9000\n", "x.toml");
  EXPECT_TRUE(s.config.renewal.watchdog);
  EXPECT_EQ(s.config.renewal.renew_divisor, 4u);
  EXPECT_EQ(s.config.renewal.max_hold_us, 9000000);
}

TEST(ScenarioWatchdog, RefusedAtTheKeyForAVariantThatCannotRenew) {
  EXPECT_EQ(error_of("variant = \"script\"\n[lock]\nwatchdog = true\n[scripts]\nacquire = \"a.lua\"\nrelease = \"r.lua\"\n"),
            "scenarios/x.toml:3:12: [lock] watchdog = true needs a variant that can renew: variant \"script\" can renew "
            "only with a renew.lua ([scripts] renew, or a third file to --scripts)");
  for (const char* variant : {"watchdog", "watchdog-unchecked", "client-reentrant", "redisson-like"}) {
    EXPECT_EQ(error_of(std::string("variant = \"") + variant + "\"\n[lock]\nttl_ms = 1000\nwatchdog = true\n"),
              std::string("scenarios/x.toml:4:12: [lock] watchdog = true needs a variant that can renew: variant \"") +
                  variant + "\" already renews in the background");
  }
  EXPECT_EQ(error_of("[lock]\nwatchdog = 1\n"),
            "scenarios/x.toml:2:12: [lock] watchdog must be a boolean (true or false), not an integer");
}

TEST(ScenarioFencing, TrueAndFalseStaySynonyms) {
  EXPECT_EQ(parse_scenario("", "x.toml").config.workload.fencing, Fencing::off);
  EXPECT_EQ(parse_scenario("[workload]\nfencing = false\n", "x.toml").config.workload.fencing, Fencing::off);
  EXPECT_EQ(parse_scenario("variant = \"fenced\"\n" "[workload]\nfencing = true\n", "x.toml").config.workload.fencing, Fencing::writes);
}

TEST(ScenarioFencing, Modes) {
  EXPECT_EQ(parse_scenario("variant = \"fenced\"\n" "[workload]\nfencing = \"writes\"\n", "x.toml").config.workload.fencing, Fencing::writes);
  EXPECT_EQ(parse_scenario("variant = \"fenced\"\n" "[workload]\nfencing = \"reads-and-writes\"\n", "x.toml").config.workload.fencing,
            Fencing::reads_and_writes);
  EXPECT_STREQ(to_string(Fencing::reads_and_writes), "reads-and-writes");
}

TEST(ScenarioFencing, UnknownModeListsTheAllowedOnes) {
  EXPECT_EQ(error_of("[workload]\nhold_min_ms = 1\nfencing = \"reads\"\n"),
            "scenarios/x.toml:3:11: [workload] fencing must be true (= \"writes\"), false, \"writes\" or "
            "\"reads-and-writes\", not \"reads\"");
}

}  // namespace
}  // namespace lockcheck::sim
