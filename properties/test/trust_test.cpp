// The cases issue 14 found the checkers getting wrong: each history here was judged wrongly before the fix
// (a false alarm or a blind spot), and is pinned to the right verdict now. Times are true microseconds.
#include <gtest/gtest.h>

#include "history_builder.hpp"
#include "properties/checkers.hpp"

namespace lockcheck::properties {
namespace {

using testing::HistoryBuilder;

Verdict verdict_of(const HistoryBuilder& b, const std::string& property) {
  for (Verdict& verdict : check_all(b.parse())) {
    if (verdict.property == property) return verdict;
  }
  ADD_FAILURE() << "no verdict for " << property;
  return {};
}

using testing::contains;

// --- a key without expiry is entitled only as long as its owner's lease ---------------------------------

// A client-timestamp lock (the deadline in the value, no PX): p1 takes it, believes it for 1 s, and crashes.
void timestamp_lock_holder_crashes(HistoryBuilder& b) {
  b.invoke(100, 1, "acquire");
  b.server(150, 0, "created", 1, "tokA", 0, -1, "SET");
  b.acquire_ok(200, 1, "tokA", 1'000'000);
  b.fault(500'000, {{"fault", "crash"}, {"process", 1}});
}

TEST(Trust, KeyWithoutExpiryTakenOverAfterItsCrashedOwnersLeaseIsNoDoubleGrant) {
  HistoryBuilder b;
  timestamp_lock_holder_crashes(b);
  // p2 reads the stored deadline, finds it passed by every clock, and takes the key over (by design).
  b.invoke(3'000'000, 2, "acquire");
  b.server(3'000'050, 0, "overwritten", 2, "tokB", 3000, -1, "SET");
  b.acquire_ok(3'000'100, 2, "tokB", 4'000'000);
  Verdict verdict = verdict_of(b, "mutual_exclusion_server");
  EXPECT_EQ(verdict.outcome, Outcome::holds) << to_string(verdict);
}

TEST(Trust, KeyWithoutExpiryTakenOverWhileItsOwnerStillBelievesIsADoubleGrant) {
  HistoryBuilder b;
  b.invoke(100, 1, "acquire");
  b.server(150, 0, "created", 1, "tokA", 0, -1, "SET");
  b.acquire_ok(200, 1, "tokA", 1'000'000);
  b.invoke(300'000, 2, "acquire");
  b.server(300'050, 0, "overwritten", 2, "tokB", 300, -1, "SET");
  b.acquire_ok(300'100, 2, "tokB", 1'300'000);
  Verdict verdict = verdict_of(b, "mutual_exclusion_server");
  EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
  EXPECT_FALSE(contains(verdict.cause, "9223372036854")) << verdict.cause;
}

// --- the resource checker computes staleness itself ------------------------------------------------------

TEST(Trust, ResourceWriteBehindTheRegisterIsStaleWhateverTheRecorderSaid) {
  HistoryBuilder b;
  b.read(100, 1, 0);
  b.read(200, 2, 0);
  b.write(300, 2, 0, 1, true, false);
  b.write(400, 1, 0, 2, true, false);  // computed from version 0 after version 1 was written: lost update
  Verdict verdict = verdict_of(b, "mutual_exclusion_resource");
  EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
  EXPECT_TRUE(contains(verdict.cause, "process 2's write")) << verdict.cause;
}

TEST(Trust, ResourceWriteFromTheLatestVersionIsFreshWhateverTheRecorderSaid) {
  HistoryBuilder b;
  b.read(100, 1, 0);
  b.write(200, 1, 0, 1, true, true);
  Verdict verdict = verdict_of(b, "mutual_exclusion_resource");
  EXPECT_EQ(verdict.outcome, Outcome::holds) << to_string(verdict);
}

// --- the server checker reads `modified` ----------------------------------------------------------------

TEST(Trust, SecondOwnersFieldAddedToAHeldSingleOwnerHashIsASecondOwner) {
  HistoryBuilder b;
  b.invoke(100, 1, "acquire");
  b.server(150, 0, "created", 1, "owner1", 0, -1, "EVALSHA");
  b.server(150, 0, "expire_set", 1, "owner1", 0, 1000, "EVALSHA");
  b.acquire_ok(200, 1, "tokA", 900'000);
  // p2's (broken) script adds its own field into the hash p1 holds: two owners in one key.
  b.invoke(300'000, 2, "acquire");
  b.server(300'050, 0, "modified", 2, "", 300, 1000, "EVALSHA");
  b.acquire_ok(300'100, 2, "tokB", 1'200'000);
  Verdict verdict = verdict_of(b, "mutual_exclusion_server");
  EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
}

TEST(Trust, OwnersOwnHashChangesAreNotASecondOwner) {
  HistoryBuilder b;
  b.invoke(100, 1, "acquire");
  b.server(150, 0, "created", 1, "owner1", 0, -1, "EVALSHA");
  b.server(150, 0, "expire_set", 1, "owner1", 0, 1000, "EVALSHA");
  b.acquire_ok(200, 1, "tokA", 900'000);
  b.invoke(300'000, 1, "acquire");
  b.server(300'050, 0, "modified", 1, "owner1", 300, 1300, "EVALSHA");
  b.acquire_ok(300'100, 1, "tokA", 1'200'000);
  EXPECT_EQ(verdict_of(b, "mutual_exclusion_server").outcome, Outcome::holds);
}

// --- reentrancy sees every op in flight ------------------------------------------------------------------

TEST(Trust, RenewalOverlappingANestedAcquireDoesNotHideItsLoweredDeadline) {
  HistoryBuilder b;
  b.invoke(100, 1, "acquire");
  b.set_nx_px(150, 1, "tokA", 60'000);
  b.acquire_ok(200, 1, "tokA", 54'000'000);
  b.invoke(1'000'000, 1, "acquire");          // nested acquire asking for a 1 s lease (F17)
  b.invoke(1'000'010, 1, "renew", "tokA");    // the watchdog renews meanwhile
  b.server(1'000'050, 0, "expire_set", 1, "tokA", 1000, 2000, "EVALSHA");  // the reentry lowered the deadline
  b.renew_ok(1'000'080, 1, "tokA", 2'000'000);
  b.acquire_ok(1'000'100, 1, "tokA", 1'900'000);
  Verdict verdict = verdict_of(b, "reentrancy");
  EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
}

// --- bounded unavailability says holds only when it judged something -------------------------------------

TEST(Trust, BoundedUnavailabilityWithNothingToJudgeIsUnknown) {
  HistoryBuilder b(1000, false, 10'000'000);
  b.invoke(100, 1, "acquire");
  b.complete(200, 1, "acquire", "fail");
  Verdict verdict = verdict_of(b, "bounded_unavailability");
  EXPECT_EQ(verdict.outcome, Outcome::unknown) << to_string(verdict);
}

TEST(Trust, BoundedUnavailabilityJudgesACrashedHolder) {
  HistoryBuilder b(1000, false, 10'000'000);
  b.invoke(100, 1, "acquire");
  b.set_nx_px(150, 1, "tokA", 1000);
  b.acquire_ok(200, 1, "tokA", 900'000);
  b.fault(300'000, {{"fault", "crash"}, {"process", 1}});
  b.server(1'000'150, 0, "expired", -1, "", 1000, 1000, "");
  b.invoke(1'500'000, 2, "acquire");
  b.set_nx_px(1'500'050, 2, "tokB", 1000);
  b.acquire_ok(1'500'100, 2, "tokB", 2'400'000);
  Verdict verdict = verdict_of(b, "bounded_unavailability");
  EXPECT_EQ(verdict.outcome, Outcome::holds) << to_string(verdict);
  EXPECT_TRUE(contains(verdict.summary, "1 crashed holder")) << verdict.summary;
}

// --- a quorum lock is judged at the lock, per-node double grants are a diagnostic --------------------------

// Redlock over 5 masters: p1 takes nodes 0, 1, 2 at t=0.1 ms (TTL 1 s); node 2's clock jumps and the key
// expires there at 0.2 s; p2 then takes node 2 and the nodes in `p2_nodes` besides.
HistoryBuilder redlock_with_early_expiry_on_node_2(const std::vector<std::int64_t>& p2_nodes) {
  HistoryBuilder b;
  b.meta("variant", "redlock");
  b.meta("nodes", 5);
  b.meta("quorum", 3);
  b.invoke(100, 1, "acquire");
  for (std::int64_t node : {0, 1, 2}) b.set_nx_px(100 + node, 1, "tokA", 1000, node);
  b.acquire_ok(200, 1, "tokA", 900'000);
  b.fault(150'000, {{"fault", "node_clock_jump"}, {"node", 2}, {"delta_us", 2'000'000}});
  b.server(200'000, 2, "expired", -1, "", 2200, 1000, "");
  b.invoke(300'000, 2, "acquire");
  b.set_nx_px(300'010, 2, "tokB", 1000, 2, 2000);
  for (std::int64_t node : p2_nodes) b.set_nx_px(300'020 + node, 2, "tokB", 1000, node);
  return b;
}

TEST(Trust, QuorumLockOneNodesDoubleGrantWithoutASecondMajorityIsADiagnosticNotAViolation) {
  HistoryBuilder b = redlock_with_early_expiry_on_node_2({3});  // p2: nodes 2, 3 — no majority
  b.complete(300'100, 2, "acquire", "fail");
  b.invoke(300'200, 2, "release", "tokB");
  b.server(300'250, 2, "deleted", 2, "", 2300, -1, "EVALSHA");
  b.server(300'260, 3, "deleted", 2, "", 300, -1, "EVALSHA");
  Verdict verdict = verdict_of(b, "mutual_exclusion_server");
  EXPECT_EQ(verdict.outcome, Outcome::holds) << to_string(verdict);
  ASSERT_EQ(verdict.diagnostics.size(), 1u) << to_string(verdict);
  EXPECT_EQ(verdict.diagnostics[0].name, "per_node_double_grant");
  EXPECT_EQ(verdict.diagnostics[0].count, 1);
  EXPECT_FALSE(verdict.diagnostics[0].witnesses.empty());
}

TEST(Trust, QuorumLockSecondMajorityWhileTheFirstIsEntitledIsAViolation) {
  HistoryBuilder b = redlock_with_early_expiry_on_node_2({3, 4});  // p2: nodes 2, 3, 4 — a majority
  b.acquire_ok(300'100, 2, "tokB", 1'200'000);
  Verdict verdict = verdict_of(b, "mutual_exclusion_server");
  EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
  EXPECT_TRUE(contains(verdict.cause, "process 2 reached a majority")) << verdict.cause;
  EXPECT_TRUE(contains(verdict.cause, "process 1 still held one (nodes 0, 1, 2")) << verdict.cause;
}

// --- keys a variant derives are judged; one reader freeing every reader is flagged --------------------------

// rw-two-keys: readers p1 and p2 share 'lock:read' (a count); p1's release DELs it while p2 still reads.
HistoryBuilder two_readers_one_release_frees_both() {
  HistoryBuilder b;
  b.meta("variant", "rw-two-keys");
  b.meta("lock_keys", {{{"key", "lock:read"}, {"lock", "lock"}, {"mode", "read"}},
                       {{"key", "lock:write"}, {"lock", "lock"}, {"mode", "write"}}});
  b.read_invoke(100, 1, "acquire");
  b.server(150, 0, "created", 1, "1", 0, -1, "EVALSHA", "lock:read");
  b.server(150, 0, "expire_set", 1, "1", 0, 1000, "EVALSHA", "lock:read");
  b.read_acquire_ok(200, 1, "tokR1", 900'000);
  b.read_invoke(10'000, 2, "acquire");
  b.server(10'050, 0, "overwritten", 2, "2", 10, 1010, "EVALSHA", "lock:read");
  b.read_acquire_ok(10'100, 2, "tokR2", 910'000);
  b.read_invoke(50'000, 1, "release", "tokR1");
  b.server(50'050, 0, "deleted", 1, "", 50, -1, "DEL", "lock:read");
  return b;
}

TEST(Trust, OneReaderDeletingTheSharedReadKeyWhileAnotherReadsViolatesOwnerOnlyRelease) {
  HistoryBuilder b = two_readers_one_release_frees_both();
  Verdict verdict = verdict_of(b, "owner_only_release");
  EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
  EXPECT_TRUE(contains(verdict.cause, "while process 2 still held a read lock")) << verdict.cause;
}

TEST(Trust, WriterTakingTheWriteKeyWhileAFreedReaderStillReadsViolatesTheServerLevel) {
  HistoryBuilder b = two_readers_one_release_frees_both();
  b.invoke(60'000, 3, "acquire");
  b.server(60'050, 0, "created", 3, "tokW", 60, -1, "EVALSHA", "lock:write");
  b.server(60'050, 0, "expire_set", 3, "tokW", 60, 1060, "EVALSHA", "lock:write");
  b.acquire_ok(60'100, 3, "tokW", 960'000);
  Verdict verdict = verdict_of(b, "mutual_exclusion_server");
  EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
  EXPECT_TRUE(contains(verdict.cause, "a writer with a reader")) << verdict.cause;
}

// --- renewal judged from facts ----------------------------------------------------------------------------

// p1 holds 'lock' for 2 s with a renewing lock: one renewal at 0.3 s, then its loop stops (a cap).
HistoryBuilder renewal_that_stops(bool record_the_stop) {
  HistoryBuilder b;
  b.invoke(100, 1, "acquire");
  b.set_nx_px(150, 1, "tokA", 1000);
  b.acquire_ok(200, 1, "tokA", 900'000);
  b.invoke(300'000, 1, "renew", "tokA");
  b.pexpire(300'050, 1, "tokA", 1000);
  b.renew_ok(300'100, 1, "tokA", 1'200'000);
  if (record_the_stop) {
    b.complete(600'000, 1, "renewal_stop", "info", "", "tokA");
  }
  b.invoke(2'000'000, 1, "release", "tokA");
  b.complete(2'000'100, 1, "release", "ok", "released", "tokA");
  return b;
}

TEST(Trust, RenewalThatStopsWhileALiveHolderIsInsideViolatesRenewal) {
  for (bool recorded : {true, false}) {
    Verdict verdict = verdict_of(renewal_that_stops(recorded), "renewal");
    EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
    EXPECT_TRUE(contains(verdict.cause, "no renewal was attempted in time")) << verdict.cause;
  }
}

TEST(Trust, DeadlineChangedByAProcessAfterItsReleaseViolatesRenewal) {
  HistoryBuilder b;
  b.invoke(100, 1, "acquire");
  b.set_nx_px(150, 1, "tokA", 1000);
  b.acquire_ok(200, 1, "tokA", 900'000);
  b.invoke(100'000, 1, "release", "tokA");
  b.complete(100'100, 1, "release", "ok", "released", "tokA");
  b.server(150'000, 0, "expire_set", 1, "tokA", 150, 1150, "PEXPIRE");  // an unreported renewal
  Verdict verdict = verdict_of(b, "renewal");
  EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
}

TEST(Trust, LastReaderDeletingTheSharedReadKeyIsItsRelease) {
  HistoryBuilder b;
  b.meta("lock_keys", {{{"key", "lock:read"}, {"lock", "lock"}, {"mode", "read"}}});
  b.read_invoke(100, 1, "acquire");
  b.server(150, 0, "created", 1, "1", 0, -1, "EVALSHA", "lock:read");
  b.server(150, 0, "expire_set", 1, "1", 0, 1000, "EVALSHA", "lock:read");
  b.read_acquire_ok(200, 1, "tokR1", 900'000);
  b.read_invoke(50'000, 1, "release", "tokR1");
  b.server(50'050, 0, "deleted", 1, "", 50, -1, "DEL", "lock:read");
  EXPECT_EQ(verdict_of(b, "owner_only_release").outcome, Outcome::holds);
}

// --- a failover to a replica holding a stale hash lock --------------------------------------------------

// Seen in the comparison (reentrant-hash, failover, seed 1): p2 held the hash lock and released it on the
// master, but the release never reached the replica. p1 then took the key on the master, the replica was
// promoted, and p2's reentry check found its own stale field there and counted up (HINCRBY: `modified`, no
// `created`). The server handed the lock to p2 while p1 was entitled: a double grant caused by the failover.
TEST(Trust, FailoverToAReplicaWithAStaleHashFieldIsADoubleGrantLostInFailover) {
  HistoryBuilder b;
  b.invoke(1'000, 1, "acquire");
  b.server(1'050, 0, "created", 1, "tokA:1", 1, -1, "HINCRBY");
  b.server(1'050, 0, "expire_set", 1, "tokA:1", 1, 1001, "PEXPIRE");
  b.acquire_ok(1'100, 1, "tokA:1", 1'000'000);
  b.fault(200'000, {{"fault", "failover"}, {"node", 1}, {"from", 0}});
  b.server(200'000, 0, "lost", -1, "tokA:1", 200, 1001, "");
  b.invoke(300'000, 2, "acquire");
  b.server(300'050, 1, "modified", 2, "tokB:1", 300, 1001, "HINCRBY");
  b.server(300'050, 1, "expire_set", 2, "tokB:1", 300, 1300, "PEXPIRE");
  b.acquire_ok(300'100, 2, "tokB:1", 1'300'000);
  Verdict verdict = verdict_of(b, "mutual_exclusion_server");
  EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
  EXPECT_TRUE(contains(verdict.cause, "lost in failover")) << verdict.cause;
  EXPECT_TRUE(contains(verdict.cause, "process 2 took the key on node 1")) << verdict.cause;
}

}  // namespace
}  // namespace lockcheck::properties
