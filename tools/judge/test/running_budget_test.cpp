// RunningBudget: a wait counts what it took, up to its slice and allowance; a stop of any length (the run's
// pause of the worker and its client together) costs no more than that.
#include "running_budget.hpp"

#include <gtest/gtest.h>

namespace lockcheck::judge {
namespace {

using std::chrono::milliseconds;

TEST(RunningBudget, WaitsCountWhatTheyTook) {
  const auto start = RunningBudget::Clock::time_point{};
  RunningBudget budget(milliseconds(250), start);
  EXPECT_EQ(budget.next_wait(), RunningBudget::kSlice);
  budget.count(milliseconds(100), start + milliseconds(100));
  budget.count(milliseconds(100), start + milliseconds(230));  // late by 30 ms: within the allowance
  EXPECT_EQ(budget.running(), milliseconds(230));
  EXPECT_EQ(budget.next_wait(), milliseconds(20));
  EXPECT_FALSE(budget.spent());
  budget.count(milliseconds(20), start + milliseconds(250));
  EXPECT_TRUE(budget.spent());
  EXPECT_EQ(budget.next_wait(), milliseconds(0));
}

TEST(RunningBudget, AStopCostsAtMostOneSliceAndItsAllowance) {
  const auto start = RunningBudget::Clock::time_point{};
  RunningBudget budget(milliseconds(1000), start);
  budget.count(milliseconds(100), start + milliseconds(15000));  // stopped for 15 s inside one wait
  EXPECT_EQ(budget.running(), RunningBudget::kSlice + RunningBudget::kAllowance);
  EXPECT_EQ(budget.elapsed(), milliseconds(15000));
  EXPECT_FALSE(budget.spent());
}

TEST(RunningBudget, ManyShortWaitsAddUp) {
  const auto start = RunningBudget::Clock::time_point{};
  RunningBudget budget(milliseconds(1), start);
  for (int i = 1; i <= 4; ++i) budget.count(milliseconds(1), start + std::chrono::microseconds(300 * i));
  EXPECT_TRUE(budget.spent());  // 1.2 ms in 0.3 ms steps: not four waits of "0 ms"
}

}  // namespace
}  // namespace lockcheck::judge
