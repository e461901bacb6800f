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

}  // namespace
}  // namespace lockcheck::properties
