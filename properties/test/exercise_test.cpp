// What a history exercised: each mark reached exactly when the timeline shows its milestone, and not
// otherwise; the counts a verdict rests on.
#include <gtest/gtest.h>

#include "history_builder.hpp"
#include "properties/exercise.hpp"

namespace lockcheck::properties {
namespace {

using testing::HistoryBuilder;

TEST(Exercise, APausedHolderResumingPastItsValidityIsMarked) {
  HistoryBuilder h;
  h.invoke(100, 0, "acquire");
  h.acquire_ok(200, 0, "a", 1'200'000);
  h.fault(300'000, {{"fault", "pause"}, {"process", 0}, {"duration_us", 2'000'000}});
  h.fault(2'300'000, {{"fault", "resume"}, {"process", 0}});
  h.invoke(2'400'000, 0, "release", "a");
  const Exercise exercise = exercise_of(h.parse());
  EXPECT_EQ(exercise.count(Mark::pause_during_hold), 1);
  EXPECT_EQ(exercise.count(Mark::resumed_after_validity), 1);
  EXPECT_EQ(exercise.count(Mark::release_after_expiry), 1);
  EXPECT_EQ(exercise.faults, 2);
  EXPECT_EQ(exercise.faults_during_hold, 2);
  EXPECT_EQ(exercise.acquires, 1);
  EXPECT_EQ(exercise.releases, 1);
}

TEST(Exercise, AShortPauseInsideTheValidityIsNoResumeAfterIt) {
  HistoryBuilder h;
  h.invoke(100, 0, "acquire");
  h.acquire_ok(200, 0, "a", 1'200'000);
  h.fault(300'000, {{"fault", "pause"}, {"process", 0}, {"duration_us", 100'000}});
  h.fault(400'000, {{"fault", "resume"}, {"process", 0}});
  h.invoke(500'000, 0, "release", "a");
  const Exercise exercise = exercise_of(h.parse());
  EXPECT_EQ(exercise.count(Mark::pause_during_hold), 1);
  EXPECT_EQ(exercise.count(Mark::resumed_after_validity), 0);
  EXPECT_EQ(exercise.count(Mark::release_after_expiry), 0);
}

TEST(Exercise, AFaultWithNoHolderDoesNotCountAsDuringAHold) {
  HistoryBuilder h;
  h.fault(100, {{"fault", "node_clock_jump"}, {"node", 0}, {"delta_us", 5'000'000}});
  h.invoke(200, 0, "acquire");
  const Exercise exercise = exercise_of(h.parse());
  EXPECT_EQ(exercise.faults, 1);
  EXPECT_EQ(exercise.faults_during_hold, 0);
  EXPECT_EQ(exercise.count(Mark::clock_jump_while_held), 0);
}

// A fault whose effect lasts lands when an operation meets it: a loss period begun before the first acquire
// is what that acquire runs through (explore's finds under loss alone were called HOLLOW: "never landed").
TEST(Exercise, ALossPeriodBegunBeforeAnyOperationLandsWhenOneMeetsIt) {
  HistoryBuilder h;
  h.fault(100, {{"fault", "loss"}, {"request_ppm", 50'000}, {"reply_ppm", 100'000}});
  h.invoke(200, 0, "acquire");
  const Exercise exercise = exercise_of(h.parse());
  EXPECT_EQ(exercise.faults, 1);
  EXPECT_EQ(exercise.faults_during_hold + exercise.faults_during_ops, 1);
}

// A slow_node line carries its delay as "delay_us" (the row's line); the reader took a line without
// "duration_us" for the end of a slow node, so a slow node begun before any operation never landed.
TEST(Exercise, ASlowNodeBegunBeforeAnyOperationLandsWhenOneMeetsIt) {
  HistoryBuilder h;
  h.fault(100, {{"fault", "slow_node"}, {"node", 0}, {"delay_us", 400'000}});
  h.invoke(200, 0, "acquire");
  const Exercise exercise = exercise_of(h.parse());
  EXPECT_EQ(exercise.faults, 1);
  EXPECT_EQ(exercise.faults_during_hold + exercise.faults_during_ops, 1);
  const History parsed = h.parse();  // kept: a reference into a temporary history dangled (ASan, CI from a clone)
  const auto& slow = std::get<FaultEvent>(parsed.events[1]);
  EXPECT_FALSE(slow.is_own_kind_end()) << "a slow node of 400 ms is no end of one";
}

TEST(Exercise, ASlowNodeOfNothingEndsTheSlowNodeBeforeIt) {
  HistoryBuilder h;
  h.fault(100, {{"fault", "slow_node"}, {"node", 0}, {"delay_us", 400'000}});
  h.fault(150, {{"fault", "slow_node"}, {"node", 0}, {"delay_us", 0}});
  h.invoke(200, 0, "acquire");
  const Exercise exercise = exercise_of(h.parse());
  EXPECT_EQ(exercise.faults, 2);
  EXPECT_EQ(exercise.faults_during_hold + exercise.faults_during_ops, 0);
}

TEST(Exercise, APartitionHealedBeforeAnyOperationNeverLanded) {
  HistoryBuilder h;
  h.fault(100, {{"fault", "partition"}, {"process", 0}, {"node", 0}});
  h.fault(150, {{"fault", "heal"}});
  h.invoke(200, 0, "acquire");
  const Exercise exercise = exercise_of(h.parse());
  EXPECT_EQ(exercise.faults, 2);
  EXPECT_EQ(exercise.faults_during_hold + exercise.faults_during_ops, 0);
}

TEST(Exercise, AReleaseSentWhileAnotherClientHoldsIsMarked) {
  HistoryBuilder h;
  h.invoke(100, 0, "acquire");
  h.server(150, 0, "created", 0, "a", 1, 1001);
  h.acquire_ok(200, 0, "a", 1'000'000);
  h.server(1'000'100, 0, "expired", -1, "", 1001, -1);
  h.invoke(1'100'000, 1, "acquire");
  h.server(1'100'050, 0, "created", 1, "b", 1101, 2101);
  h.acquire_ok(1'100'100, 1, "b", 2'100'000);
  h.invoke(1'200'000, 0, "release", "a");
  h.server(1'200'050, 0, "deleted", 0, "", 1201, -1, "DEL");
  const Exercise exercise = exercise_of(h.parse());
  EXPECT_EQ(exercise.count(Mark::release_while_other_holds), 1);
  EXPECT_EQ(exercise.count(Mark::expired_while_held), 1);
}

// A release sent in the last tenth of another client's key's TTL is marked (in true time, from the line that set
// the TTL); one sent earlier, or on the sender's own key, is not.
TEST(Exercise, AReleaseNearAnotherClientsExpiryIsMarked) {
  const auto releases_at = [](std::int64_t release_us, std::int64_t releaser) {
    HistoryBuilder h;  // TTL 1000 ms (the builder's meta)
    h.invoke(100, 1, "acquire");
    h.server(1'000'000, 0, "created", 1, "b", 5000, 6000);  // node time 5 s: the key runs out at true 2 s
    h.acquire_ok(1'000'100, 1, "b", 2'000'000);
    h.invoke(release_us, releaser, "release", "a");
    return exercise_of(h.parse()).count(Mark::release_near_other_expiry);
  };
  EXPECT_EQ(releases_at(1'950'000, 0), 1);  // 50 ms left
  EXPECT_EQ(releases_at(1'500'000, 0), 0);  // 500 ms left
  EXPECT_EQ(releases_at(2'000'100, 0), 0);  // run out
  EXPECT_EQ(releases_at(1'950'000, 1), 0);  // its own key
}

TEST(Exercise, AFaultDuringAnAcquireInFlightMetTheLock) {
  // Redlock's pause during acquisition: no one holds yet, but the fault lands on the lock's work.
  HistoryBuilder h;
  h.invoke(100, 0, "acquire");
  h.fault(200, {{"fault", "pause"}, {"process", 0}, {"duration_us", 2'000'000}});
  const Exercise exercise = exercise_of(h.parse());
  EXPECT_EQ(exercise.faults_during_hold, 0);
  EXPECT_EQ(exercise.faults_during_ops, 1);
}

TEST(Exercise, ACrashedHolderWithAWaiterIsMarked) {
  HistoryBuilder h;
  h.invoke(100, 0, "acquire");
  h.acquire_ok(200, 0, "a", 1'000'000);
  h.invoke(300, 1, "acquire");
  h.fault(400, {{"fault", "crash"}, {"process", 0}});
  EXPECT_EQ(exercise_of(h.parse()).count(Mark::waiter_when_holder_died), 1);
}

TEST(Exercise, AnAcquireAgainAfterAnUnknownOutcomeIsARetry) {
  HistoryBuilder h;
  h.invoke(100, 0, "acquire");
  h.complete(200, 0, "acquire", "info");
  h.invoke(300, 0, "acquire");
  const Exercise exercise = exercise_of(h.parse());
  EXPECT_EQ(exercise.count(Mark::acquire_unknown), 1);
  EXPECT_EQ(exercise.count(Mark::retried_after_unknown), 1);
  EXPECT_EQ(exercise.unknown_outcomes, 1);
}

}  // namespace
}  // namespace lockcheck::properties
