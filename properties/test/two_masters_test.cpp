// Two masters of one lock at the same true time (mutual_exclusion_server across nodes): an old master that
// goes on serving its side after a failover (`from_serving` on the failover line, a Sentinel split-brain)
// and the promoted node each grant the lock to a different owner while the other's grant is entitled.
// Times are true microseconds; TTL 1000 ms; node clocks = true time.
#include <gtest/gtest.h>

#include "history_builder.hpp"
#include "properties/checkers.hpp"

namespace lockcheck::properties {
namespace {

using testing::HistoryBuilder;

Verdict server_verdict(const HistoryBuilder& b) {
  for (Verdict& verdict : check_all(b.parse())) {
    if (verdict.property == "mutual_exclusion_server") return verdict;
  }
  ADD_FAILURE() << "no mutual_exclusion_server verdict";
  return {};
}

using testing::contains;

// p acquires `token` on `node` at t: SET NX PX 1000, ok 100 us later with a validity of 0.9 s.
std::int64_t grant(HistoryBuilder& b, std::int64_t t, std::int64_t p, const std::string& token, std::int64_t node) {
  b.invoke(t, p, "acquire");
  const std::int64_t created = b.set_nx_px(t + 50, p, token, 1000, node);
  b.acquire_ok(t + 100, p, token, t + 900'000);
  return created;
}

// p releases `token` on `node` with compare-and-delete.
void release(HistoryBuilder& b, std::int64_t t, std::int64_t p, const std::string& token, std::int64_t node) {
  b.invoke(t, p, "release", token);
  b.server(t + 50, node, "deleted", p, "", t / 1000, -1, "EVALSHA");
  b.complete(t + 100, p, "release", "ok", "released", token);
}

// Node 0 is cut off with process 1 at 0.1 s; the sentinels promote node 1 at 0.4 s, and node 0 keeps serving.
std::int64_t sentinel_split_brain(HistoryBuilder& b, bool old_master_serves = true) {
  b.meta("nodes", 3);
  b.fault(100'000, {{"fault", "split_brain"}, {"node", 0}, {"process", 1}});
  HistoryBuilder::json failover{{"fault", "failover"}, {"node", 1}, {"from", 0}, {"by", "sentinels"}};
  if (old_master_serves) failover["from_serving"] = true;
  return b.fault(400'000, failover);
}

TEST(TwoMasters, OldMasterGrantsAfterTheFailoverWhileTheNewMastersGrantIsEntitled) {
  HistoryBuilder b;
  const std::int64_t failover = sentinel_split_brain(b);
  const std::int64_t new_master_grant = grant(b, 500'000, 2, "tokB", 1);
  const std::int64_t old_master_grant = grant(b, 600'000, 1, "tokA", 0);
  const Verdict verdict = server_verdict(b);
  EXPECT_EQ(verdict.outcome, Outcome::violated) << verdict.summary;
  EXPECT_EQ(verdict.witnesses, (std::vector<std::int64_t>{failover, new_master_grant, old_master_grant}));
  EXPECT_TRUE(contains(verdict.cause, "two masters at once")) << verdict.cause;
  EXPECT_TRUE(contains(verdict.cause, "node 0 granted process 1 the lock at t=0.60005s")) << verdict.cause;
  EXPECT_TRUE(contains(verdict.cause, "process 2's instance (token tokB) granted by node 1 at t=0.50005s"))
      << verdict.cause;
}

TEST(TwoMasters, NewMasterGrantsWhileTheOldMastersPostFailoverGrantIsEntitled) {
  HistoryBuilder b;
  const std::int64_t failover = sentinel_split_brain(b);
  const std::int64_t old_master_grant = grant(b, 450'000, 1, "tokA", 0);
  const std::int64_t new_master_grant = grant(b, 700'000, 2, "tokB", 1);
  const Verdict verdict = server_verdict(b);
  EXPECT_EQ(verdict.outcome, Outcome::violated) << verdict.summary;
  EXPECT_EQ(verdict.witnesses, (std::vector<std::int64_t>{failover, old_master_grant, new_master_grant}));
}

// A grant the other master's instance outlived only in node time, not in true time: entitlement ended first.
TEST(TwoMasters, GrantsThatDoNotOverlapInTrueTimeHold) {
  HistoryBuilder b;
  sentinel_split_brain(b);
  grant(b, 450'000, 1, "tokA", 0);
  b.server(1'450'050, 0, "expired", -1, "", 1'450, -1, "");
  grant(b, 1'500'000, 2, "tokB", 1);
  EXPECT_EQ(server_verdict(b).outcome, Outcome::holds);
}

// Without `from_serving` the old master is fenced at the failover (killed, or a cluster master answering
// CLUSTERDOWN): what it still holds is judged by the failover rules, not as a second master.
TEST(TwoMasters, FencedOldMasterIsNotASecondMaster) {
  HistoryBuilder b;
  grant(b, 10'000, 1, "tokA", 0);  // before the cut: replicated, so node 1 has it too
  sentinel_split_brain(b, false);
  release(b, 450'000, 1, "tokA", 1);
  grant(b, 500'000, 2, "tokB", 1);
  EXPECT_EQ(server_verdict(b).outcome, Outcome::holds);
}

// The owner released its instance on the new master: the old master's stale copy of the same instance is no
// longer anyone's entitlement, even while the old master still serves.
TEST(TwoMasters, ACopyItsOwnerReleasedElsewhereIsNotAGrant) {
  HistoryBuilder b;
  grant(b, 10'000, 2, "tokA", 0);  // before the cut, replicated to node 1
  sentinel_split_brain(b);
  release(b, 450'000, 2, "tokA", 1);
  grant(b, 500'000, 3, "tokC", 1);
  EXPECT_EQ(server_verdict(b).outcome, Outcome::holds);
}

// A grant made before the cut, carried to the promoted node and renewed there by its owner, is that master's
// too: the old master, its own copy expired, granting another owner inside the renewed entitlement is a
// second master's grant.
TEST(TwoMasters, ACopyRenewedOnTheNewMasterIsItsGrant) {
  HistoryBuilder b;
  const std::int64_t granted = grant(b, 10'000, 2, "tokA", 0);  // replicated to node 1 before the cut
  const std::int64_t failover = sentinel_split_brain(b);
  b.server(500'000, 1, "expire_set", 2, "tokA", 500, 1'500, "EVALSHA");  // renewed on node 1 until 1.5 s
  b.server(1'010'050, 0, "expired", -1, "", 1'010, -1, "");            // node 0's copy runs out
  const std::int64_t taken = grant(b, 1'200'000, 1, "tokB", 0);
  const Verdict verdict = server_verdict(b);
  EXPECT_EQ(verdict.outcome, Outcome::violated) << verdict.summary;
  EXPECT_EQ(verdict.witnesses, (std::vector<std::int64_t>{granted, failover, taken}));
}

// The split-brain grant the promoted node never had is one violation, not two: the per-node failover rule
// finds it, and the two-masters rule does not count the same pair again.
TEST(TwoMasters, ASplitBrainGrantTheFailoverRuleFoundIsCountedOnce) {
  HistoryBuilder b;
  b.meta("nodes", 3);
  b.fault(100'000, {{"fault", "split_brain"}, {"node", 0}, {"process", 1}});
  grant(b, 150'000, 1, "tokA", 0);
  b.fault(400'000, {{"fault", "failover"}, {"node", 1}, {"from", 0}, {"by", "sentinels"}, {"from_serving", true}});
  grant(b, 600'000, 2, "tokB", 1);
  const Verdict verdict = server_verdict(b);
  EXPECT_EQ(verdict.outcome, Outcome::violated);
  EXPECT_TRUE(contains(verdict.summary, "1 time(s)")) << verdict.summary;
  EXPECT_TRUE(contains(verdict.cause, "split-brain")) << verdict.cause;
}

// A grant the old master made while the promoted node was already a master stays entitled after the old
// master rejoins as a replica (its copy is replaced): the new master's later grant inside that entitlement is
// the second master's grant, as a grant lost in a failover is.
TEST(TwoMasters, GrantOfAnOldMasterThatRejoinedStaysEntitled) {
  HistoryBuilder b;
  const std::int64_t failover = sentinel_split_brain(b);
  const std::int64_t old_master_grant = grant(b, 450'000, 1, "tokA", 0);
  b.fault(500'000, {{"fault", "rejoin"}, {"node", 0}, {"master", 1}});
  b.server(500'000, 0, "lost", -1, "tokA", 500, 1'450, "");
  const std::int64_t new_master_grant = grant(b, 1'200'000, 2, "tokB", 1);
  const Verdict verdict = server_verdict(b);
  EXPECT_EQ(verdict.outcome, Outcome::violated) << verdict.summary;
  EXPECT_EQ(verdict.witnesses, (std::vector<std::int64_t>{failover, old_master_grant, new_master_grant}));
  EXPECT_TRUE(contains(verdict.summary, "1 time(s)")) << verdict.summary;
}

// A failed-over master restarted (node_restart) comes back a master on real Redis and stays one until the
// sentinels re-point it (a `rejoin` line): until then it and the promoted node are two masters, though the
// failover line has no `from_serving` (the old master was dead then).
TEST(TwoMasters, RestartedOldMasterGrantsBeforeItRejoins) {
  HistoryBuilder b;
  b.meta("nodes", 3);
  b.fault(100'000, {{"fault", "node_crash"}, {"node", 0}});
  b.fault(400'000, {{"fault", "failover"}, {"node", 1}, {"from", 0}, {"by", "sentinels"}});
  const std::int64_t new_master_grant = grant(b, 500'000, 2, "tokB", 1);
  const std::int64_t restart = b.fault(600'000, {{"fault", "node_restart"}, {"node", 0}, {"mode", "lost"}});
  const std::int64_t old_master_grant = grant(b, 700'000, 1, "tokA", 0);
  b.fault(900'000, {{"fault", "rejoin"}, {"node", 0}, {"master", 1}});
  const Verdict verdict = server_verdict(b);
  EXPECT_EQ(verdict.outcome, Outcome::violated) << verdict.summary;
  EXPECT_EQ(verdict.witnesses, (std::vector<std::int64_t>{new_master_grant, restart, old_master_grant}));
  EXPECT_TRUE(contains(verdict.cause, "node 0, restarted at t=0.6s, still believed it was the master after the "
                                      "failover at t=0.4s"))
      << verdict.cause;
}

// The promoted node itself failed over later: the restarted node's rival is the master that holds its data now.
TEST(TwoMasters, RestartedOldMasterRivalsTheCurrentMasterOfItsData) {
  HistoryBuilder b;
  b.meta("nodes", 3);
  b.fault(100'000, {{"fault", "node_crash"}, {"node", 0}});
  b.fault(400'000, {{"fault", "failover"}, {"node", 1}, {"from", 0}, {"by", "sentinels"}});
  b.fault(450'000, {{"fault", "node_crash"}, {"node", 1}});
  b.fault(480'000, {{"fault", "failover"}, {"node", 2}, {"from", 1}, {"by", "sentinels"}});
  grant(b, 500'000, 2, "tokB", 2);
  b.fault(600'000, {{"fault", "node_restart"}, {"node", 0}, {"mode", "lost"}});
  grant(b, 700'000, 1, "tokA", 0);
  EXPECT_EQ(server_verdict(b).outcome, Outcome::violated);
}

// Restarted and turned into a replica at once (the mock's Sentinel), or restarted with no failover in between:
// no second master.
TEST(TwoMasters, RestartedNodeThatRejoinsAtOnceOrWasNeverFailedOverIsNoRival) {
  HistoryBuilder at_once;
  at_once.meta("nodes", 3);
  at_once.fault(100'000, {{"fault", "node_crash"}, {"node", 0}});
  at_once.fault(400'000, {{"fault", "failover"}, {"node", 1}, {"from", 0}, {"by", "sentinels"}});
  grant(at_once, 500'000, 2, "tokB", 1);
  at_once.fault(600'000, {{"fault", "node_restart"}, {"node", 0}, {"mode", "lost"}});
  at_once.fault(600'000, {{"fault", "rejoin"}, {"node", 0}, {"master", 1}});
  grant(at_once, 1'600'000, 1, "tokA", 1);
  EXPECT_EQ(server_verdict(at_once).outcome, Outcome::holds);

  HistoryBuilder no_failover;
  no_failover.meta("nodes", 3);
  no_failover.fault(100'000, {{"fault", "node_crash"}, {"node", 0}});
  no_failover.fault(200'000, {{"fault", "node_restart"}, {"node", 0}, {"mode", "lost"}});
  grant(no_failover, 300'000, 1, "tokA", 0);
  grant(no_failover, 1'300'000, 2, "tokB", 0);
  EXPECT_EQ(server_verdict(no_failover).outcome, Outcome::holds);
}

}  // namespace
}  // namespace lockcheck::properties
