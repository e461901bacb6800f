// A setting the variant would silently ignore is refused at its line, with the fix (issue 24, item 6); and
// `[expect] progress = "starved"` (item 7) is read with its cause.
#include <gtest/gtest.h>

#include "scenario/scenario.hpp"
#include "scenario_error.hpp"

namespace lockcheck::sim {
namespace {

using testing::error_of;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(ScenarioSettingsApply, RenewScriptWithoutTheWatchdogIsRefusedAtItsLine) {
  const std::string error =
      error_of("variant = \"script\"\n[scripts]\nacquire = \"a.lua\"\nrelease = \"r.lua\"\nrenew = \"n.lua\"\n");
  EXPECT_EQ(error.substr(0, error.find(": ")), "scenarios/x.toml:5:9") << error;
  EXPECT_TRUE(contains(error, "[scripts] renew would never run")) << error;
  EXPECT_TRUE(contains(error, "add `watchdog = true` to [lock]")) << error;
  EXPECT_EQ(error_of("variant = \"script\"\n[lock]\nwatchdog = true\n[scripts]\nacquire = \"a.lua\"\nrelease = "
                     "\"r.lua\"\nrenew = \"n.lua\"\n"),
            "no error");
}

TEST(ScenarioSettingsApply, RenewalKeysNeedSomethingThatRenews) {
  const std::string error = error_of("variant = \"token\"\n[lock]\nttl_ms = 1000\nrenew_divisor = 4\n");
  EXPECT_TRUE(contains(error, "scenarios/x.toml:4:17: [lock] renew_divisor configures renewal, but variant 'token' "
                              "does not renew here; add `watchdog = true` to [lock]")) << error;
  EXPECT_TRUE(contains(error_of("[lock]\nmax_hold_ms = 5\n"), "scenarios/x.toml:2:15: [lock] max_hold_ms"));
  EXPECT_EQ(error_of("[lock]\nwatchdog = true\nmax_renewals = 2\n"), "no error");
  EXPECT_EQ(error_of("variant = \"watchdog\"\n[lock]\nmax_renewals = 2\n"), "no error");
}

TEST(ScenarioSettingsApply, ReadersNeedASharedMode) {
  const std::string error = error_of("variant = \"token\"\n[workload]\nreaders_ppm = 500000\n");
  EXPECT_TRUE(contains(error, "scenarios/x.toml:3:15: [workload] readers_ppm asks for read (shared) acquisitions, "
                              "but variant 'token' has no shared mode; use one that has (")) << error;
  EXPECT_TRUE(contains(error, "rw-owned")) << error;
  EXPECT_EQ(error_of("variant = \"rw-two-keys\"\n[workload]\nreaders_ppm = 500000\n"), "no error");
  EXPECT_EQ(error_of("variant = \"token\"\n[workload]\nreaders_ppm = 0\n"), "no error");
}

TEST(ScenarioSettingsApply, FencingNeedsFencingTokens) {
  const std::string error = error_of("variant = \"token\"\n[workload]\nfencing = \"writes\"\n");
  EXPECT_TRUE(contains(error, "scenarios/x.toml:3:11: [workload] fencing makes the register check the holders' "
                              "fencing tokens, but variant 'token' hands out none")) << error;
  EXPECT_TRUE(contains(error, "use variant fenced, redisson-fenced or remove `fencing`")) << error;
  EXPECT_EQ(error_of("variant = \"fenced\"\n[workload]\nfencing = true\n"), "no error");
  EXPECT_EQ(error_of("variant = \"token\"\n[workload]\nfencing = false\n"), "no error");
}

TEST(ScenarioSettingsApply, NestingNeedsAReentrantVariant) {
  const std::string error = error_of("variant = \"token\"\n[workload]\nnest_every = 2\n");
  EXPECT_TRUE(contains(error, "scenarios/x.toml:3:14: [workload] nest_every nests acquires of the held lock, but "
                              "variant 'token' is not reentrant")) << error;
  EXPECT_TRUE(contains(error, "reentrant-hash")) << error;
  EXPECT_EQ(error_of("variant = \"reentrant-hash\"\n[workload]\nnest_every = 2\nnested_hold_max_ms = 3\n"), "no error");
  EXPECT_TRUE(contains(error_of("variant = \"reentrant-hash\"\n[workload]\nnested_hold_max_ms = 3\n"),
                       "scenarios/x.toml:3:22: [workload] nested_hold_max_ms applies to nested acquires, and there "
                       "are none without `nest_every` > 0"));
}

TEST(ScenarioExpectStarved, ReadWithItsCause) {
  const Scenario s = parse_scenario("[expect]\nprogress = \"starved\"\nstarved_because = \"CROSSSLOT\"\n", "x.toml");
  ASSERT_EQ(s.expectations.size(), 1u);
  EXPECT_EQ(s.expectations[0].property, "progress");
  EXPECT_EQ(s.expectations[0].expected, Expectation::Expected::starved);
  EXPECT_EQ(s.expectations[0].because, "CROSSSLOT");
  EXPECT_EQ(s.expectations[0].line, 2);
  EXPECT_EQ(to_string(Expectation::Expected::starved), "starved");
}

TEST(ScenarioExpectStarved, Refusals) {
  EXPECT_EQ(error_of("[expect]\nstarved_because = \"CROSSSLOT\"\n"),
            "scenarios/x.toml:2:19: [expect] starved_because needs progress = \"starved\" beside it");
  EXPECT_EQ(error_of("[expect]\nprogress = \"fast\"\n"),
            "scenarios/x.toml:2:12: [expect] progress must be one of \"starved\", not \"fast\"");
  EXPECT_TRUE(contains(error_of("[expect]\nprogress = \"starved\"\nstarved_because = \"\"\n"), "must name the error"));
}

}  // namespace
}  // namespace lockcheck::sim
