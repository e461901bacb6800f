// bounded_unavailability's clause (c) on hand-written histories of a lock over three independent masters (meta
// quorum): acquires that all fail for longer than a TTL while nobody holds the lock and two masters are up is the
// lock that never locks; with two masters down, or while someone holds it, the same failures say nothing.
#include <gtest/gtest.h>

#include "history_builder.hpp"
#include "properties/checkers.hpp"

namespace lockcheck::properties {
namespace {

using testing::HistoryBuilder;

HistoryBuilder three_masters() {
  HistoryBuilder b(1000, false, 10'000'000);
  b.meta("variant", "redisson-multilock");
  b.meta("nodes", 3);
  b.meta("quorum", 3);
  return b;
}

Verdict unavailability(const History& history) {
  for (Verdict& verdict : check_all(history)) {
    if (verdict.property == "bounded_unavailability") return verdict;
  }
  ADD_FAILURE() << "no bounded_unavailability verdict";
  return {};
}

// `p` fails to acquire from t for `wait_us`, no attempt finding the lock held.
std::int64_t fails(HistoryBuilder& b, std::int64_t t, std::int64_t p, std::int64_t wait_us = 800'000) {
  b.invoke(t, p, "acquire");
  return b.complete(t + wait_us, p, "acquire", "fail", "not_refused");
}

TEST(QuorumAvailable, NobodyHoldingAMajorityUpAndNoGrantPastATtlIsUnavailability) {
  HistoryBuilder b = three_masters();
  b.fault(1'000'000, {{"fault", "node_crash"}, {"node", 2}});
  const std::int64_t first = b.invoke(1'100'000, 0, "acquire");
  b.complete(1'900'000, 0, "acquire", "fail", "not_refused");
  fails(b, 1'950'000, 1);
  const std::int64_t last = fails(b, 2'800'000, 0);
  const Verdict verdict = unavailability(b.parse());
  EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
  EXPECT_EQ(verdict.witnesses, (std::vector<std::int64_t>{first, last}));
  EXPECT_NE(verdict.cause.find("a majority of its 3 masters were up"), std::string::npos) << verdict.cause;
}

TEST(QuorumAvailable, AMajorityDownAHolderOrAGrantInBetweenSayNothing) {
  HistoryBuilder down = three_masters();
  down.fault(1'000'000, {{"fault", "node_crash"}, {"node", 2}});
  down.fault(1'000'000, {{"fault", "node_crash"}, {"node", 1}});
  fails(down, 1'100'000, 0);
  fails(down, 1'950'000, 1);
  fails(down, 2'800'000, 0);
  EXPECT_NE(unavailability(down.parse()).outcome, Outcome::violated);

  HistoryBuilder held = three_masters();
  held.invoke(900'000, 2, "acquire");
  held.acquire_ok(950'000, 2, "tokA", 4'000'000);
  fails(held, 1'100'000, 0);
  fails(held, 1'950'000, 1);
  fails(held, 2'800'000, 0);
  EXPECT_NE(unavailability(held.parse()).outcome, Outcome::violated);

  HistoryBuilder granted = three_masters();
  fails(granted, 1'100'000, 0);
  granted.invoke(1'910'000, 2, "acquire");
  granted.acquire_ok(1'920'000, 2, "tokA", 2'800'000);
  granted.invoke(1'930'000, 2, "release", "tokA");
  granted.complete(1'940'000, 2, "release", "ok", "released", "tokA");
  fails(granted, 1'950'000, 1);
  EXPECT_NE(unavailability(granted.parse()).outcome, Outcome::violated);
}

// A slow node answers late enough to spend a grant's validity: while one is slow, failures say nothing. Its line
// carries its size as "delay_us" (the row's), which the clause read as "duration_us" and so never saw a slow
// node (the explore gate at 1000 runs, seed 35: redlock's acquire failed for 1.7 s beside two slow masters, and
// was called its own bug). Once the slow node ends, the failures count again.
TEST(QuorumAvailable, FailuresWhileANodeIsSlowSayNothing) {
  for (const bool slow_ends_first : {false, true}) {
    HistoryBuilder b = three_masters();
    b.fault(1'000'000, {{"fault", "node_crash"}, {"node", 2}});
    b.fault(1'050'000, {{"fault", "slow_node"}, {"node", 1}, {"delay_us", 400'000}});
    if (slow_ends_first) b.fault(1'080'000, {{"fault", "slow_node"}, {"node", 1}, {"delay_us", 0}});
    fails(b, 1'100'000, 0);
    fails(b, 1'950'000, 1);
    fails(b, 2'800'000, 0);
    // Then process 2 takes the lock on the two masters up: a key creation the property watches (holds, not "not
    // exercised").
    b.invoke(3'700'000, 2, "acquire");
    for (const std::int64_t node : {0, 1}) b.set_nx_px(3'700'100, 2, "c", 1000, node);
    b.acquire_ok(3'700'200, 2, "c", 4'690'000);
    EXPECT_EQ(unavailability(b.parse()).outcome, slow_ends_first ? Outcome::violated : Outcome::holds) << "slow ends first: " << slow_ends_first;
  }
}

TEST(QuorumAvailable, ALockOnOneMasterIsNotJudgedSo) {
  HistoryBuilder b;  // no quorum: a node down makes any single-master lock unavailable
  fails(b, 1'100'000, 0);
  fails(b, 1'950'000, 1);
  fails(b, 2'800'000, 0);
  EXPECT_NE(unavailability(b.parse()).outcome, Outcome::violated);
}

}  // namespace
}  // namespace lockcheck::properties
