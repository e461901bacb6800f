// check_one(history, P) is check_all's verdict for P, computed alone: explore's --property judges each run so.
// Compared on histories whose verdicts differ (a broken reentrant lock on real Redis, a release at a new master,
// a workload cut short by server errors, a latch), every property, every field a report prints.
#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>

#include "history_builder.hpp"
#include "model/properties.hpp"
#include "properties/checkers.hpp"

namespace lockcheck::properties {
namespace {

using testing::HistoryBuilder;

History fixture(const std::string& name) {
  std::ifstream in(std::string(LOCKCHECK_PROPERTIES_FIXTURES) + "/" + name);
  EXPECT_TRUE(in.good()) << name;
  return parse_history(in);
}

History cut_short_by_a_server_error() {
  HistoryBuilder b;
  b.invoke(0, 1, "acquire");
  b.acquire_ok(1'000, 1, "tokA", 900'000);
  b.invoke(1'600'000, 1, "acquire");
  b.op(1'601'000, {{"type", "fail"}, {"process", 1}, {"f", "acquire"}, {"key", "lock"}, {"detail", "CROSSSLOT"}, {"error", true}});
  return b.parse();
}

History latch_of_two_opened_early() {
  HistoryBuilder b(1000, false, 20'000'000);
  b.meta("variant", "redisson-latch");
  b.meta("latch", 2);
  b.invoke(1000, 2, "await", "", "lock:0");
  b.invoke(50'000, 0, "count_down", "", "lock:0");
  b.complete(50'100, 0, "count_down", "ok", "counted", "", "lock:0");
  b.complete(60'000, 2, "await", "ok", "opened", "", "lock:0");
  return b.parse();
}

TEST(CheckOne, IsCheckAllsVerdictForEachProperty) {
  const std::pair<const char*, History> histories[] = {
      {"reentrant-hash-nesting-redis", fixture("reentrant-hash-nesting-redis.jsonl")},
      {"release at a new master", fixture("script-release-at-new-master-old-master-restarted.jsonl")},
      {"cut short", cut_short_by_a_server_error()},
      {"latch", latch_of_two_opened_early()},
  };
  int violated = 0;
  for (const auto& named : histories) {
    const std::vector<Verdict> all = check_all(named.second);
    ASSERT_EQ(all.size(), std::size(sim::kProperties));
    for (const Verdict& expected : all) {
      const Verdict alone = check_one(named.second, expected.property);
      EXPECT_EQ(alone.property, expected.property) << named.first;
      EXPECT_EQ(alone.outcome, expected.outcome) << named.first << ", " << expected.property;
      EXPECT_EQ(alone.summary, expected.summary) << named.first << ", " << expected.property;
      EXPECT_EQ(alone.cause, expected.cause) << named.first << ", " << expected.property;
      EXPECT_EQ(alone.witnesses, expected.witnesses) << named.first << ", " << expected.property;
      if (expected.outcome == Outcome::violated) ++violated;
    }
  }
  EXPECT_GT(violated, 0);  // the comparison met a violation, not only holds and unknowns
}

TEST(CheckOne, RefusesANameOutsideTheProperties) {
  EXPECT_THROW(check_one(cut_short_by_a_server_error(), "mutual_exclusion"), std::invalid_argument);
}

}  // namespace
}  // namespace lockcheck::properties
