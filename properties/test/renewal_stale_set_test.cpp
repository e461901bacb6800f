// The renewal checker judges renewals: a key re-created by a late acquire command (a SET sent before the
// release, delayed past it by a slow node) sets a deadline, but it is no renewal that outlived the lock.
// Found by `lockcheck explore --variant token-wait` (slow_node), where it was reported as a renewal violation.
#include <gtest/gtest.h>

#include "history_builder.hpp"
#include "properties/checkers.hpp"

namespace lockcheck::properties {
namespace {

using testing::HistoryBuilder;

TEST(RenewalChecker, ALateAcquireSetAfterTheReleaseIsNoRenewal) {
  HistoryBuilder h;
  h.invoke(100, 1, "acquire");
  h.server(200, 0, "created", 1, "a", 1, 1001);
  h.server(200, 0, "expire_set", 1, "a", 1, 1001);
  h.acquire_ok(300, 1, "a", 900'000);
  h.op(400'000, {{"type", "invoke"}, {"process", 1}, {"f", "renew"}, {"key", "lock"}, {"local", 400'000}, {"token", "a"}});
  h.pexpire(400'200, 1, "a", 1000);
  h.renew_ok(400'500, 1, "a", 1'300'000);
  h.invoke(500'000, 1, "release", "a");
  h.server(500'100, 0, "deleted", 1, "", 500, -1, "DEL");
  h.complete(500'200, 1, "release", "ok", "released", "a");
  // The acquire's first SET, delayed by a slow node, lands after the release: it re-creates the key.
  h.server(500'300, 0, "created", 1, "a", 500, 1500);
  h.server(500'300, 0, "expire_set", 1, "a", 500, 1500);
  const Verdict verdict = check_renewal(h.parse());
  EXPECT_EQ(verdict.outcome, Outcome::holds) << verdict.summary << verdict.cause;
}

TEST(RenewalChecker, APexpireAfterTheReleaseIsStillARenewalThatOutlivedTheLock) {
  HistoryBuilder h;
  h.invoke(100, 1, "acquire");
  h.server(200, 0, "created", 1, "a", 1, 1001);
  h.server(200, 0, "expire_set", 1, "a", 1, 1001);
  h.acquire_ok(300, 1, "a", 900'000);
  h.op(400'000, {{"type", "invoke"}, {"process", 1}, {"f", "renew"}, {"key", "lock"}, {"local", 400'000}, {"token", "a"}});
  h.pexpire(400'200, 1, "a", 1000);
  h.renew_ok(400'500, 1, "a", 1'300'000);
  h.invoke(500'000, 1, "release", "a");
  h.complete(500'200, 1, "release", "ok", "not_owned", "a");
  h.server(500'300, 0, "expire_set", 1, "a", 500, 1500, "PEXPIRE");
  EXPECT_EQ(check_renewal(h.parse()).outcome, Outcome::violated);
}

// A semaphore's key is shared: an acquire adds its member to a key others keep alive, so it modifies the key
// (no creation) and moves its deadline. Process 2 holds, renews once and releases a permit; then one more ZADD and PEXPIREAT
// of its own land, after an earlier acquire of it failed (`failed_acquire_first`) or with none.
// `attempts`: how many the granted acquire sent (more than one: its ok line says so, and an earlier one may land).
// `first_outcome`: how that earlier acquire ended ("fail", or "info": its outcome unknown).
History semaphore_change_after_release(bool failed_acquire_first, int attempts = 1, bool crashed_acquiring_first = false,
                                       const char* first_outcome = "fail") {
  HistoryBuilder h;
  if (failed_acquire_first) {
    h.invoke(100, 2, "acquire");
    h.complete(100'000, 2, "acquire", first_outcome, std::string(first_outcome) == "fail" ? "unreachable" : "unknown");
  }
  if (crashed_acquiring_first) {
    h.invoke(100, 2, "acquire");
    h.fault(100'000, {{"fault", "crash"}, {"process", 2}});
    h.fault(140'000, {{"fault", "restart"}, {"process", 2}});
  }
  h.invoke(150'000, 2, "acquire");
  h.server(150'100, 1, "modified", 2, "", 150, 1150, "ZADD");
  h.server(150'100, 1, "expire_set", 2, "", 150, 1150, "PEXPIREAT");
  if (attempts > 1) {
    h.op(150'200, {{"type", "ok"}, {"process", 2}, {"f", "acquire"}, {"key", "lock"}, {"local", 150'200}, {"token", "b"},
                   {"valid_until", 1'000'000}, {"valid_until_local", 1'000'000}, {"fencing", 0}, {"attempts", attempts}});
  } else {
    h.acquire_ok(150'200, 2, "b", 1'000'000);
  }
  h.op(170'000, {{"type", "invoke"}, {"process", 2}, {"f", "renew"}, {"key", "lock"}, {"local", 170'000}, {"token", "b"}});
  h.server(170'100, 1, "expire_set", 2, "", 170, 1170, "PEXPIREAT");
  h.renew_ok(170'200, 2, "b", 1'100'000);
  h.invoke(200'000, 2, "release", "b");
  h.server(200'100, 1, "modified", 2, "", 200, 1150, "ZREM");
  h.complete(200'200, 2, "release", "ok", "released", "b");
  h.server(201'000, 1, "modified", 2, "", 201, 1201, "ZADD");
  h.server(201'000, 1, "expire_set", 2, "", 201, 1201, "PEXPIREAT");
  return h.parse();
}

// The failed acquire's attempt, held back by a slow node, lands after the later release: a doubted attempt
// landing late, which holds at most one TTL, not a renewal. Found by the explore gate at 1000 runs, seed 5, on
// `semaphore`, where it was reported as the lock's own renewal bug.
TEST(RenewalChecker, AFailedAcquiresAttemptLandingAfterALaterReleaseIsNoRenewal) {
  const Verdict verdict = check_renewal(semaphore_change_after_release(true));
  EXPECT_EQ(verdict.outcome, Outcome::holds) << verdict.summary << verdict.cause;
}

// The same after an acquire whose outcome stayed unknown: the most doubted attempt of all (the gate at 1000 runs,
// seed 193, on reentrant-hash: an acquire gave up past its request record, and its attempt landed after the next
// hold's release).
TEST(RenewalChecker, AnUnknownAcquiresAttemptLandingAfterALaterReleaseIsNoRenewal) {
  const Verdict verdict = check_renewal(semaphore_change_after_release(true, 1, false, "info"));
  EXPECT_EQ(verdict.outcome, Outcome::holds) << verdict.summary << verdict.cause;
}

// The granted acquire itself sent two attempts: the first, held back, may land after the release (the gate at 1000
// runs, seed 29, on semaphore, after the failed-acquire case above was fixed).
TEST(RenewalChecker, AnAttemptOfARetriedAcquireLandingAfterItsReleaseIsNoRenewal) {
  const Verdict verdict = check_renewal(semaphore_change_after_release(false, 2));
  EXPECT_EQ(verdict.outcome, Outcome::holds) << verdict.summary << verdict.cause;
}

// The process crashed with an acquire on its way and restarted: that dead incarnation's attempt lands under the same
// process id after the new incarnation's release (the gate at 1000 runs, seed 29, on semaphore once more).
TEST(RenewalChecker, ADeadIncarnationsAttemptLandingAfterTheNewOnesReleaseIsNoRenewal) {
  const Verdict verdict = check_renewal(semaphore_change_after_release(false, 1, true));
  EXPECT_EQ(verdict.outcome, Outcome::holds) << verdict.summary << verdict.cause;
}

// With no failed or retried acquire before it, the same deadline change is still a renewal that outlived the lock.
TEST(RenewalChecker, ADeadlineChangeAfterAReleaseWithNoFailedAcquireIsStillARenewal) {
  EXPECT_EQ(check_renewal(semaphore_change_after_release(false)).outcome, Outcome::violated);
}

// Two readers of a read-write hash; reader 1 releases; then one more command of process 1 sets the shared key's
// deadline, listing (`relisted`) its released token among the holders again or not. Relisted, it is an attempt
// of that token's acquire, duplicated and landing late (a slow node held the first attempt while the retry got
// through): a reader joining, neither a renewal after the release nor an extension of reader 0's hold (the gate
// at 1000 runs, seed 55, on rw-owned). Not relisted, it is both.
History reader_changes_deadline_after_release(bool relisted, const std::string& listed_token = "r1") {
  using Holders = std::vector<std::pair<std::string, std::string>>;
  HistoryBuilder h;
  h.meta("variant", "rw-owned");
  h.read_invoke(100, 0, "acquire");
  h.hash_event(200, "created", 0, Holders{{"r0", "read"}}, 1000, 1);
  h.read_acquire_ok(300, 0, "r0", 990'000);
  h.read_invoke(1'000, 1, "acquire");
  h.hash_event(1'100, "modified", 1, Holders{{"r0", "read"}, {"r1", "read"}}, 1000, 1);
  h.read_acquire_ok(1'200, 1, "r1", 990'000);
  // Reader 0 renews once, so the renewal property judges this history (holds, not "not exercised").
  h.op(100'000, {{"type", "invoke"}, {"process", 0}, {"f", "renew"}, {"key", "lock"}, {"local", 100'000}, {"token", "r0"}});
  h.hash_event(100'100, "expire_set", 0, Holders{{"r0", "read"}, {"r1", "read"}}, 1000, 1);
  h.renew_ok(100'200, 0, "r0", 1'090'000);
  h.read_invoke(190'000, 1, "release", "r1");
  h.hash_event(190'100, "modified", 1, Holders{{"r0", "read"}}, 1000, 1);
  h.op(190'200, {{"type", "ok"}, {"process", 1}, {"f", "release"}, {"key", "lock"}, {"local", 190'200}, {"mode", "read"},
                 {"token", "r1"}, {"result", "released"}});
  const Holders after = relisted ? Holders{{"r0", "read"}, {listed_token, "read"}} : Holders{{"r0", "read"}};
  if (relisted) h.hash_event(191'000, "modified", 1, after, 1000, 1);  // the attempt's HSET, then its PEXPIRE
  h.hash_event(191'000, "expire_set", 1, after, 1000, 1);
  h.read_invoke(200'000, 0, "release", "r0");  // reader 0 leaves in time: its renewal did not stop on it
  h.op(200'200, {{"type", "ok"}, {"process", 0}, {"f", "release"}, {"key", "lock"}, {"local", 200'200}, {"mode", "read"},
                 {"token", "r0"}, {"result", "released"}});
  return h.parse();
}

// The attempt lists a token no ok line names (its acquire never returned: the gate at 1000 runs, seed 87): the
// command added that holder, so it is the process's own, a reader joining, not a foreign extension.
TEST(OwnerOnlyRelease, ACommandThatAddsAHolderOfItsOwnJoinsTheReaders) {
  EXPECT_EQ(check_owner_only_release(reader_changes_deadline_after_release(true, "r9")).outcome, Outcome::holds);
}

TEST(RenewalChecker, ALateDuplicateAcquireRelistingItsReleasedTokenIsNoRenewal) {
  for (const bool relisted : {true, false}) {
    const History history = reader_changes_deadline_after_release(relisted);
    EXPECT_EQ(check_renewal(history).outcome, relisted ? Outcome::holds : Outcome::violated) << "relisted: " << relisted << ": " << check_renewal(history).cause;
    EXPECT_EQ(check_owner_only_release(history).outcome, relisted ? Outcome::holds : Outcome::violated) << "relisted: " << relisted;
  }
}

// A quorum lock's acquire is granted by two nodes of three while its SET to the third, delayed by a slow node,
// lands only once the holder's renewal is in flight: that creation is the acquire's, not the renewal bringing its
// key back ((f)). Found by `lockcheck explore --variant all` on redlock (slow_node on node 2 from t=0), where it
// was called redlock's own renewal bug. A renew that creates its key again on a node where its acquire had
// written is still (f); so is one whose creation runs another command than the acquire's there.
History quorum_acquire_landing_late(const std::string& late_command, bool acquired_there_before) {
  HistoryBuilder h;
  h.invoke(100, 1, "acquire");
  for (const std::int64_t node : {0, 1}) h.server(200, node, "created", 1, "a", 1, 1001);
  if (acquired_there_before) h.server(250, 2, "created", 1, "a", 1, 1001);
  h.acquire_ok(300, 1, "a", 900'000);
  if (acquired_there_before) h.server(300'000, 2, "expired", -1, "", 300, -1, "");
  h.op(333'000, {{"type", "invoke"}, {"process", 1}, {"f", "renew"}, {"key", "lock"}, {"local", 333'000}, {"token", "a"}});
  h.server(400'100, 2, "created", 1, "a", 400, 1400, late_command);
  for (const std::int64_t node : {0, 1}) h.pexpire(400'200, 1, "a", 1000, node);
  h.renew_ok(1'134'000, 1, "a", 1'300'000);
  h.invoke(1'200'000, 1, "release", "a");
  for (const std::int64_t node : {0, 1, 2}) h.server(1'200'100, node, "deleted", 1, "", 1200, -1, "DEL");
  h.complete(1'200'200, 1, "release", "ok", "released", "a");
  return h.parse();
}

TEST(RenewalChecker, AQuorumAcquiresSetLandingLateDuringARenewalIsNoKeyBroughtBack) {
  const Verdict late_set = check_renewal(quorum_acquire_landing_late("SET", false));
  EXPECT_EQ(late_set.outcome, Outcome::holds) << late_set.cause;
  const Verdict created_again = check_renewal(quorum_acquire_landing_late("SET", true));
  EXPECT_EQ(created_again.outcome, Outcome::violated) << created_again.summary;
  EXPECT_NE(created_again.cause.find("created 'lock' again on node 2"), std::string::npos) << created_again.cause;
  const Verdict other_command = check_renewal(quorum_acquire_landing_late("EVALSHA", false));
  EXPECT_EQ(other_command.outcome, Outcome::violated) << other_command.summary;
}

// (e) judges the key against the validity: a renewal that moved no deadline because the key, its node's clock
// stepped back, had more than a TTL left is no renewal that answers yes without extending. Found by `lockcheck
// explore --variant all` on reentrant-maxttl (a renew that sets the TTL only when longer), after a -542 ms jump
// of the node's clock, where it was called that lock's own renewal bug.
History renewal_after_node_clock_jump(std::int64_t jump_ms) {
  HistoryBuilder h;
  h.invoke(900'000, 1, "acquire");
  h.server(919'379, 0, "created", 1, "a", 919, 1919);
  h.acquire_ok(919'500, 1, "a", 1'900'000);
  if (jump_ms != 0) h.fault(953'000, {{"fault", "node_clock_jump"}, {"node", 0}, {"delta_us", jump_ms * 1000}});
  h.op(1'236'597, {{"type", "invoke"}, {"process", 1}, {"f", "renew"}, {"key", "lock"}, {"local", 1'236'597}, {"token", "a"}});
  h.renew_ok(1'269'465, 1, "a", 2'224'597);
  h.invoke(1'400'000, 1, "release", "a");
  h.server(1'400'100, 0, "deleted", 1, "", 858, -1, "DEL");
  h.complete(1'400'200, 1, "release", "ok", "released", "a");
  return h.parse();
}

TEST(RenewalChecker, ARenewalWithNothingToExtendAfterANodeClockSteppedBackIsNoSilentRenewal) {
  const Verdict stepped_back = check_renewal(renewal_after_node_clock_jump(-542));
  EXPECT_EQ(stepped_back.outcome, Outcome::holds) << stepped_back.cause;
  const Verdict no_jump = check_renewal(renewal_after_node_clock_jump(0));  // 650 ms left: it had to extend
  EXPECT_EQ(no_jump.outcome, Outcome::violated) << no_jump.summary;
  EXPECT_NE(no_jump.cause.find("moved no deadline"), std::string::npos) << no_jump.cause;
  const Verdict stepped_back_little = check_renewal(renewal_after_node_clock_jump(-200));  // 850 ms: still short
  EXPECT_EQ(stepped_back_little.outcome, Outcome::violated) << stepped_back_little.summary;
}

}  // namespace
}  // namespace lockcheck::properties
