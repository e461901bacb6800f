// ExternalLock over a scripted client (a shell one-liner speaking PROTOCOL.md): replies map to the statuses
// every variant reports, and a client that breaks the protocol is an error, never a verdict.
#include "external_lock.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>

#include "lockcheck/task.hpp"

namespace lockcheck::judge {
namespace {

class FixedClock final : public Clock {
 public:
  MonoTime monotonic_now() override { return MonoTime{} + Micros(1000); }
  Millis wall_now() override { return Millis(0); }
  Task<void> sleep(Micros) override { co_return; }
};

std::string stderr_path() { return ::testing::TempDir() + "external_lock_test.stderr"; }

// A client that answers each request line with the next of `replies` (its id substituted for ID).
ExternalProcess scripted(const std::string& hello, const std::vector<std::string>& replies) {
  std::string script = "echo '" + hello + "'; ";
  for (const std::string& reply : replies) {
    script += "read line; id=$(echo \"$line\" | sed 's/.*\"id\":\\([0-9]*\\).*/\\1/'); echo '" + reply + "' | sed \"s/ID/$id/\"; ";
  }
  script += "cat >/dev/null";
  return ExternalProcess({"sh", "-c", script}, {}, stderr_path());
}

constexpr const char* kHello = R"({"type":"hello","client":"scripted","ops":["acquire","release","use"]})";

TEST(ExternalLock, RepliesBecomeTheStatusesEveryVariantReports) {
  ExternalProcess process = scripted(kHello, {R"({"id":ID,"type":"ok","token":"t1","fence":7})", R"({"id":ID,"type":"fail"})",
                                              R"({"id":ID,"type":"fail","error":"held"})", R"({"id":ID,"type":"info","error":"timeout"})"});
  FixedClock clock;
  ExternalLock lock(process, clock, Millis(500), "p0-", std::chrono::milliseconds(10000));
  EXPECT_EQ(lock.hello().client, "scripted");
  AcquireResult acquired = run_sync(lock.acquire("lock", Micros(0)));
  ASSERT_EQ(acquired.status, AcquireStatus::acquired);
  EXPECT_EQ(acquired.lease->token, "t1");
  EXPECT_EQ(acquired.lease->fencing_token, 7);
  EXPECT_EQ(acquired.lease->valid_until, clock.monotonic_now() + Millis(500));
  EXPECT_EQ(run_sync(lock.release(*acquired.lease)), ReleaseStatus::not_owned);
  EXPECT_EQ(run_sync(lock.acquire("lock", Micros(0))).status, AcquireStatus::busy);
  EXPECT_EQ(run_sync(lock.acquire("lock", Micros(0))).status, AcquireStatus::unknown);
}

TEST(ExternalLock, AClientThatBreaksTheProtocolIsAnError) {
  FixedClock clock;
  {
    ExternalProcess process = scripted(R"({"type":"hello","ops":["acquire"]})", {});
    EXPECT_THROW(ExternalLock(process, clock, Millis(500), "p0-", std::chrono::milliseconds(10000)), std::runtime_error);
  }
  {
    ExternalProcess process = scripted("not json", {});
    EXPECT_THROW(ExternalLock(process, clock, Millis(500), "p0-", std::chrono::milliseconds(10000)), std::runtime_error);
  }
  {
    ExternalProcess process = scripted(kHello, {R"({"id":ID,"type":"maybe"})"});
    ExternalLock lock(process, clock, Millis(500), "p0-", std::chrono::milliseconds(10000));
    EXPECT_THROW(run_sync(lock.acquire("lock", Micros(0))), std::runtime_error);
  }
}

// A client that dies before its hello says how, and what it wrote on standard error, not "no hello in 10 s".
TEST(ExternalLock, AClientThatDiesAtStartSaysHowAndWhy) {
  ExternalProcess process({"sh", "-c", "echo 'no module named redis' >&2; exit 4"}, {}, stderr_path() + ".dies");
  FixedClock clock;
  try {
    ExternalLock lock(process, clock, Millis(500), "p0-", std::chrono::milliseconds(10000));
    FAIL() << "a client without a hello line was accepted";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("exited with status 4"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("no module named redis"), std::string::npos) << error.what();
  }
}

TEST(ExternalLock, NoReplyInTimeIsAnUnknownOutcome) {
  ExternalProcess process = scripted(kHello, {});
  FixedClock clock;
  ExternalLock lock(process, clock, Millis(500), "p0-", std::chrono::milliseconds(10000));
  const Reply reply = lock.request({{"op", "release"}}, std::chrono::milliseconds(100));
  EXPECT_EQ(reply.type, Reply::Type::info);
}

}  // namespace
}  // namespace lockcheck::judge
