// The simulator's running invariants (LOCKCHECK_ASSERT) fire: each kind is made to break once here, and the
// process dies naming it, instead of the run going on with a broken world.
#include <gtest/gtest.h>

#include "core/scheduler.hpp"
#include "core/world.hpp"
#include "model/history.hpp"

namespace lockcheck::sim {
namespace {

constexpr const char* kBroken = "lockcheck invariant broken";

TEST(InvariantsDeathTest, TrueTimeNeverGoesBack) {
  Scheduler scheduler;
  scheduler.advance_to(2000);
  EXPECT_DEATH(scheduler.advance_to(1999), kBroken);
}

TEST(InvariantsDeathTest, HistoryLinesComeInTimeOrder) {
  History history;
  history.record(HistoryLine(5000, "op"));
  history.record(HistoryLine(5000, "op"));  // equal times are fine: two events at one instant
  EXPECT_DEATH(history.record(HistoryLine(4999, "op")), kBroken);
  EXPECT_DEATH(history.record(4000, "fault", Json{{"i", 1}}), kBroken);  // the Json path too
}

TEST(InvariantsDeathTest, ADeadProcessNeitherDiesAgainNorPauses) {
  World world(RunConfig{}, 1);
  world.client(0).crash();
  EXPECT_DEATH(world.client(0).crash(), kBroken);
  EXPECT_DEATH(world.client(0).pause(), kBroken);
}

TEST(InvariantsDeathTest, APausedProcessIsNotPausedAgain) {
  World world(RunConfig{}, 1);
  world.client(1).pause();
  EXPECT_DEATH(world.client(1).pause(), kBroken);
}

}  // namespace
}  // namespace lockcheck::sim
