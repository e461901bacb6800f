// A history whose clients stopped on server errors cannot pass: what it held was only judged until then.
#include <gtest/gtest.h>

#include "history_builder.hpp"
#include "properties/checkers.hpp"

namespace lockcheck::properties {
namespace {

using testing::HistoryBuilder;

const std::string kTryAgain = "acquire of lock 'lock' failed: TRYAGAIN Multiple keys request during rehashing of slot";

// Process 1 acquires and releases; then a slot migration starts and both clients stop on a server error.
HistoryBuilder stopped_at_migration() {
  HistoryBuilder b;
  b.invoke(0, 1, "acquire");
  b.acquire_ok(1'000, 1, "tokA", 900'000);
  b.invoke(300'000, 1, "release", "tokA");
  b.complete(301'000, 1, "release", "ok", "released", "tokA");
  b.fault(1'500'000, {{"fault", "slot_migration"}, {"node", 2}, {"from", 1}, {"slot", 1}});
  b.invoke(1'600'000, 1, "acquire");
  b.op(1'601'000, {{"type", "fail"}, {"process", 1}, {"f", "acquire"}, {"key", "lock"}, {"detail", kTryAgain}, {"error", true}});
  b.invoke(1'700'000, 2, "acquire");
  b.op(1'701'000, {{"type", "fail"}, {"process", 2}, {"f", "acquire"}, {"key", "lock"}, {"detail", kTryAgain}, {"error", true}});
  return b;
}

TEST(WorkloadCutShort, HoldsBecomesUnknownAndSaysWhy) {
  const History history = stopped_at_migration().parse();
  for (const Verdict& verdict : check_all(history)) {
    EXPECT_NE(verdict.outcome, Outcome::holds) << to_string(verdict);
    if (verdict.property != "mutual_exclusion_client") continue;
    EXPECT_EQ(verdict.outcome, Outcome::unknown);
    EXPECT_NE(verdict.summary.find("2 client(s) stopped on a server error"), std::string::npos) << verdict.summary;
    EXPECT_NE(verdict.summary.find("t=1.601 s (process 1: " + kTryAgain + ")"), std::string::npos) << verdict.summary;
    EXPECT_NE(verdict.summary.find("0 acquisition(s) after it"), std::string::npos) << verdict.summary;
    EXPECT_NE(verdict.cause.find("held until the workload stopped"), std::string::npos) << verdict.cause;
  }
}

TEST(WorkloadCutShort, ViolationsStayViolations) {
  HistoryBuilder b = stopped_at_migration();
  b.acquire_ok(1'800'000, 2, "tokB", 2'700'000);
  b.acquire_ok(1'900'000, 1, "tokC", 2'800'000);  // two clients believe they hold it at once
  const History history = b.parse();
  for (const Verdict& verdict : check_all(history)) {
    if (verdict.property == "mutual_exclusion_client") {
      EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
    }
  }
}

TEST(WorkloadCutShort, RunsWithoutServerErrorsAreUntouched) {
  HistoryBuilder b;
  b.acquire_ok(1'000, 1, "tokA", 900'000);
  b.invoke(300'000, 1, "release", "tokA");
  b.complete(301'000, 1, "release", "ok", "released", "tokA");
  b.acquire_ok(400'000, 2, "tokB", 1'300'000);
  for (const Verdict& verdict : check_all(b.parse())) {
    if (verdict.property == "mutual_exclusion_client") {
      EXPECT_EQ(verdict.outcome, Outcome::holds) << to_string(verdict);
    }
  }
}

}  // namespace
}  // namespace lockcheck::properties
