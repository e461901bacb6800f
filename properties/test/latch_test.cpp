// The latch property on hand-written latch histories (meta "latch" = 2): an await that returns after both
// count_downs, within the bound, holds and every lock property stands aside; an await that returns after one
// count_down is the latch opened early; an await under way when the count reached zero that is still waiting,
// gave up or returned past the bound (2 TTL + 1 s = 3 s) is the latch that never opened. A pause of the awaiting
// process moves its bound; a lock's history is not judged.
#include <gtest/gtest.h>

#include "history_builder.hpp"
#include "properties/checkers.hpp"

namespace lockcheck::properties {
namespace {

using testing::HistoryBuilder;

HistoryBuilder latch_of_two(std::int64_t end_us = 20'000'000) {
  HistoryBuilder b(1000, false, end_us);
  b.meta("variant", "redisson-latch");
  b.meta("latch", 2);
  return b;
}

Verdict latch_verdict(const History& history) {
  for (Verdict& verdict : check_all(history)) {
    if (verdict.property == "latch") return verdict;
  }
  ADD_FAILURE() << "no latch verdict";
  return {};
}

// Process `p` counts `key` down from t, ok 100 us later.
std::int64_t count_down(HistoryBuilder& b, std::int64_t t, std::int64_t p, const std::string& key = "lock:0") {
  b.invoke(t, p, "count_down", "", key);
  return b.complete(t + 100, p, "count_down", "ok", "counted", "", key);
}

TEST(Latch, AwaitsAfterBothCountDownsHoldAndTheLockPropertiesStandAside) {
  HistoryBuilder b = latch_of_two();
  b.invoke(1000, 2, "await", "", "lock:0");
  count_down(b, 50'000, 0);
  count_down(b, 80'000, 1);
  b.invoke(80'200, 1, "await", "", "lock:0");
  b.complete(80'300, 1, "await", "ok", "", "", "lock:0");
  b.complete(81'000, 2, "await", "ok", "", "", "lock:0");
  const History history = b.parse();
  const Verdict verdict = latch_verdict(history);
  EXPECT_EQ(verdict.outcome, Outcome::holds) << to_string(verdict);
  for (const Verdict& other : check_all(history)) {
    if (other.property == "latch") continue;
    EXPECT_EQ(other.outcome, Outcome::unknown) << to_string(other);
    EXPECT_NE(other.summary.find("holds no lock"), std::string::npos) << other.summary;
  }
}

TEST(Latch, AnAwaitThatReturnsAfterOneCountDownOpenedEarly) {
  HistoryBuilder b = latch_of_two();
  b.invoke(1000, 2, "await", "", "lock:0");
  const std::int64_t first = b.invoke(50'000, 0, "count_down", "", "lock:0");
  b.complete(50'100, 0, "count_down", "ok", "counted", "", "lock:0");
  const std::int64_t opened = b.complete(50'200, 2, "await", "ok", "", "", "lock:0");
  count_down(b, 90'000, 1);
  const Verdict verdict = latch_verdict(b.parse());
  EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
  EXPECT_NE(verdict.cause.find("opened early"), std::string::npos) << verdict.cause;
  EXPECT_NE(std::find(verdict.witnesses.begin(), verdict.witnesses.end(), first), verdict.witnesses.end());
  EXPECT_NE(std::find(verdict.witnesses.begin(), verdict.witnesses.end(), opened), verdict.witnesses.end());
}

TEST(Latch, ACountDownThatFailedDoesNotCountButOneInDoubtDoes) {
  HistoryBuilder b = latch_of_two();
  b.invoke(1000, 2, "await", "", "lock:0");
  count_down(b, 50'000, 0);
  b.invoke(60'000, 1, "count_down", "", "lock:0");
  b.complete(60'500, 1, "count_down", "info", "unknown", "", "lock:0");  // may have counted
  b.complete(61'000, 2, "await", "ok", "", "", "lock:0");
  EXPECT_EQ(latch_verdict(b.parse()).outcome, Outcome::holds);

  HistoryBuilder failed = latch_of_two();
  failed.invoke(1000, 2, "await", "", "lock:0");
  count_down(failed, 50'000, 0);
  failed.invoke(60'000, 1, "count_down", "", "lock:0");
  failed.complete(60'500, 1, "count_down", "fail", "unreachable", "", "lock:0");  // certainly did not
  failed.complete(61'000, 2, "await", "ok", "", "", "lock:0");
  EXPECT_EQ(latch_verdict(failed.parse()).outcome, Outcome::violated);
}

TEST(Latch, AnAwaitStillWaitingPastTheBoundNeverOpened) {
  HistoryBuilder b = latch_of_two(10'000'000);
  const std::int64_t waiting = b.invoke(1000, 2, "await", "", "lock:0");
  count_down(b, 50'000, 0);
  const std::int64_t zero = count_down(b, 90'000, 1);
  const Verdict verdict = latch_verdict(b.parse());
  EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
  EXPECT_NE(verdict.cause.find("still waiting when the run ended"), std::string::npos) << verdict.cause;
  EXPECT_EQ(verdict.witnesses, (std::vector<std::int64_t>{waiting, zero}));
}

TEST(Latch, LateReturnsAndGivingUpPastTheBoundAreViolationsWithinItAreNot) {
  for (const char* outcome : {"ok", "fail"}) {
    HistoryBuilder late = latch_of_two();
    late.invoke(1000, 2, "await", "", "lock:0");
    count_down(late, 50'000, 0);
    count_down(late, 90'000, 1);
    late.complete(8'001'000, 2, "await", outcome, "", "", "lock:0");  // 7.9 s after zero
    EXPECT_EQ(latch_verdict(late.parse()).outcome, Outcome::violated) << outcome;

    HistoryBuilder soon = latch_of_two();
    soon.invoke(1000, 2, "await", "", "lock:0");
    count_down(soon, 50'000, 0);
    count_down(soon, 90'000, 1);
    soon.complete(2'000'000, 2, "await", outcome, "", "", "lock:0");  // 1.9 s after zero: inside the bound
    EXPECT_NE(latch_verdict(soon.parse()).outcome, Outcome::violated) << outcome;
  }
}

TEST(Latch, APauseOfTheAwaitingProcessMovesItsBound) {
  HistoryBuilder b = latch_of_two();
  b.invoke(1000, 2, "await", "", "lock:0");
  count_down(b, 50'000, 0);
  count_down(b, 90'000, 1);
  b.fault(100'000, {{"fault", "pause"}, {"process", 2}, {"duration_us", 5'000'000}});
  b.complete(5'200'000, 2, "await", "ok", "", "", "lock:0");  // 5.1 s after zero, 5 s of it paused
  EXPECT_EQ(latch_verdict(b.parse()).outcome, Outcome::holds);
}

// Lost messages keep a re-polling await from the opening for longer than the bound: each lost poll costs a
// command timeout and the next interval. While 25% of requests and 22% of replies are lost (a round trip lost
// with q = 0.415), the 3 s bound stretches by 1 / (1 - q) to 5.13 s: an await 4.2 s after zero is in time, one
// 7.9 s after is not (a latch that waits for a lost message and never polls). A loss that ended before zero
// stretches nothing. Found by the explore gate at 1000 runs, seed 15, on `latch` (twelve polls, 3.2 s after
// zero), where it was reported as the latch's own bug.
TEST(Latch, LostMessagesStretchTheBoundWhileTheyLast) {
  struct Case {
    bool loss_ends_before_zero;
    std::int64_t returned_us;
    Outcome expected;
  };
  for (const Case& each : {Case{false, 4'300'000, Outcome::holds}, Case{false, 8'000'000, Outcome::violated},
                           Case{true, 4'300'000, Outcome::violated}}) {
    HistoryBuilder b = latch_of_two();
    b.invoke(1000, 2, "await", "", "lock:0");
    b.fault(10'000, {{"fault", "loss"}, {"request_ppm", 250'000}, {"reply_ppm", 220'000}});
    count_down(b, 50'000, 0);
    if (each.loss_ends_before_zero) b.fault(60'000, {{"fault", "loss"}, {"request_ppm", 0}, {"reply_ppm", 0}});
    count_down(b, 90'000, 1);
    b.complete(each.returned_us, 2, "await", "ok", "", "", "lock:0");
    EXPECT_EQ(latch_verdict(b.parse()).outcome, each.expected)
        << "loss ends before zero: " << each.loss_ends_before_zero << ", returned at " << each.returned_us;
  }
}

// A slow node holds every poll back: the bound grows until the slow_node that ends it, as for a partition.
TEST(Latch, ASlowNodeMovesTheBoundUntilItEnds) {
  HistoryBuilder slow = latch_of_two();
  slow.invoke(1000, 2, "await", "", "lock:0");
  slow.fault(10'000, {{"fault", "slow_node"}, {"node", 0}, {"delay_us", 400'000}});
  count_down(slow, 50'000, 0);
  count_down(slow, 90'000, 1);
  slow.fault(2'000'000, {{"fault", "slow_node"}, {"node", 0}, {"delay_us", 0}});
  slow.complete(4'300'000, 2, "await", "ok", "", "", "lock:0");  // 4.2 s after zero, 1.9 s of it slow
  EXPECT_EQ(latch_verdict(slow.parse()).outcome, Outcome::holds);
}

TEST(Latch, TheWitnessIsTheViolationThatCameFirst) {
  HistoryBuilder b = latch_of_two(10'000'000);
  b.invoke(1000, 2, "await", "", "lock:2");  // lock:2's await is past its bound at t=3.09 s ...
  count_down(b, 50'000, 0, "lock:2");
  count_down(b, 90'000, 1, "lock:2");
  const std::int64_t early = b.invoke(5'000'000, 3, "await", "", "lock:1");  // ... lock:1's opens early at 5.1 s
  count_down(b, 5'050'000, 0, "lock:1");
  b.complete(5'100'000, 3, "await", "ok", "", "", "lock:1");
  const Verdict verdict = latch_verdict(b.parse());
  EXPECT_EQ(verdict.outcome, Outcome::violated);
  EXPECT_NE(verdict.summary.find("2 await(s)"), std::string::npos) << verdict.summary;
  EXPECT_NE(verdict.cause.find("'lock:2'"), std::string::npos) << verdict.cause;
  EXPECT_EQ(std::count(verdict.witnesses.begin(), verdict.witnesses.end(), early), 0);
}

TEST(Latch, NotApplicableToALock) {
  HistoryBuilder b;
  b.invoke(100, 1, "acquire");
  b.acquire_ok(200, 1, "tokA", 900'000);
  const Verdict verdict = latch_verdict(b.parse());
  EXPECT_EQ(verdict.outcome, Outcome::unknown);
  EXPECT_NE(verdict.summary.find("not applicable"), std::string::npos) << verdict.summary;
}

// Both promises broken in one run: each is a clause of the verdict with its own first violation (explore keeps
// a find per clause, verdict.hpp), and the verdict's own witness is the earlier one's, named by its clause.
TEST(Latch, EachPromiseBrokenIsAClauseWithItsOwnWitness) {
  HistoryBuilder b = latch_of_two(10'000'000);
  const std::int64_t waiting = b.invoke(1000, 2, "await", "", "lock:2");  // never opened: past its bound at 3.09 s
  count_down(b, 50'000, 0, "lock:2");
  const std::int64_t zero = count_down(b, 90'000, 1, "lock:2");
  const std::int64_t early = b.invoke(5'000'000, 3, "await", "", "lock:1");  // opened early at 5.1 s
  count_down(b, 5'050'000, 0, "lock:1");
  const std::int64_t opened = b.complete(5'100'000, 3, "await", "ok", "", "", "lock:1");
  const Verdict verdict = latch_verdict(b.parse());
  ASSERT_EQ(verdict.outcome, Outcome::violated);
  EXPECT_EQ(verdict.clause, "never_opened");
  ASSERT_EQ(verdict.clauses.size(), 2u);
  EXPECT_TRUE(violated_clause(verdict, "opened_early"));
  EXPECT_TRUE(violated_clause(verdict, "never_opened"));
  EXPECT_FALSE(violated_clause(verdict, "no_such_clause"));
  const Verdict never = restricted_to(verdict, "never_opened");
  EXPECT_EQ(never.witnesses, (std::vector<std::int64_t>{waiting, zero}));
  const Verdict early_view = restricted_to(verdict, "opened_early");
  EXPECT_EQ(early_view.clause, "opened_early");
  EXPECT_NE(std::find(early_view.witnesses.begin(), early_view.witnesses.end(), early), early_view.witnesses.end());
  EXPECT_NE(std::find(early_view.witnesses.begin(), early_view.witnesses.end(), opened), early_view.witnesses.end());
  EXPECT_NE(early_view.cause.find("opened early"), std::string::npos) << early_view.cause;
}

}  // namespace
}  // namespace lockcheck::properties
