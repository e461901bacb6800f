// The workload on seams of the test's own, with no simulator: what it records, when it stops, how its threads
// share one lock object and what a thread's failure becomes. Seams that complete synchronously, as the redis
// backend's are, so run_sync drives it as the worker does.
#include <gtest/gtest.h>

#include <deque>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "lockcheck/errors.hpp"
#include "workload/op_lines.hpp"
#include "workload/workload.hpp"
#include "step_clock.hpp"

namespace lockcheck::sim {
namespace {

using testing::InlineSpawner;
using testing::StepClock;

// Grants every acquire (the test's threads never overlap: a spawned one runs to its end first); or throws
// RedisError, as a server refusing the lock's commands does.
class GrantingLock final : public LockAlgorithm {
 public:
  explicit GrantingLock(Clock& clock) : clock_(clock) {}
  Task<AcquireResult> acquire(std::string key, Micros) override {
    if (refuse) throw RedisError("CROSSSLOT Keys in request don't hash to the same slot");
    if (fail_as) {
      AcquireResult failed;
      failed.status = *fail_as;
      failed.refused_at = refused_at;
      co_return failed;
    }
    Lease lease{.key = std::move(key), .token = "t" + std::to_string(++acquires)};
    lease.valid_until = clock_.monotonic_now() + Micros(1'000'000);
    lease.clock = &clock_;
    lease.fencing_token = acquires;
    AcquireResult result;
    result.status = AcquireStatus::acquired;
    result.lease = lease;
    co_return result;
  }
  Task<ReleaseStatus> release(Lease&) override { co_return ReleaseStatus::released; }
  Task<RenewStatus> renew(Lease&) override { co_return RenewStatus::renewed; }
  int acquires = 0;
  bool refuse = false;
  std::optional<AcquireStatus> fail_as;  // set: every acquire fails so, with `refused_at`
  std::optional<MonoTime> refused_at;

 private:
  Clock& clock_;
};

class MemoryLog final : public OpLog {
 public:
  explicit MemoryLog(StepClock& clock) : clock_(clock) {}
  std::int64_t now_us() override { return clock_.now_us; }
  std::int64_t local_us() override { return clock_.now_us; }
  std::int64_t true_time_of(MonoTime deadline) override { return deadline.count(); }
  std::int64_t local_of(MonoTime deadline) override { return deadline.count(); }
  void record(HistoryLine&& line) override { lines.push_back(Json::parse(std::move(line).unnumbered())); }
  std::vector<Json> lines;

 private:
  StepClock& clock_;
};

// A register without fencing; `fail` makes its reads throw (an internal error, not the lock's).
class CountingResource final : public Resource {
 public:
  RegisterRead read(std::int64_t, int thread) override {
    if (fail) throw std::runtime_error("resource server gone");
    threads.push_back(thread);
    return RegisterRead{value, version, true};
  }
  void write(std::int64_t new_value, std::int64_t, std::int64_t, int) override {
    value = new_value;
    ++version;
  }
  std::int64_t value = 0, version = 0;
  std::vector<int> threads;
  bool fail = false;
};

class TestClient final : public WorkloadClient {
 public:
  int process() const override { return 7; }
  LockAlgorithm& lock() override { return lock_; }
  Clock& clock() override { return clock_; }
  Spawner& spawner() override { return spawner_; }
  OpLog& log() override { return log_; }
  ThreadSeams thread_seams(OwnerId thread) override {
    seams_asked.push_back(thread);
    CountingResource& resource = resources.emplace_back();
    resource.fail = thread == failing_thread;
    return ThreadSeams{prngs.emplace_back(thread + 1), resource};
  }
  StepClock clock_;
  GrantingLock lock_{clock_};
  InlineSpawner spawner_;
  MemoryLog log_{clock_};
  std::deque<Prng> prngs;
  std::deque<CountingResource> resources;
  std::vector<OwnerId> seams_asked;
  std::optional<OwnerId> failing_thread;  // whose resource fails
};

std::vector<std::string> op_sequence(const std::vector<Json>& lines) {
  std::vector<std::string> out;
  for (const Json& line : lines) out.push_back(line["type"].get<std::string>() + " " + line["f"].get<std::string>());
  return out;
}

WorkloadConfig rounds(std::uint32_t count) {
  WorkloadConfig workload;
  workload.max_acquires_per_client = count;
  return workload;
}

TEST(Workload, EachRoundAcquiresReadsWritesAndReleases) {
  TestClient client;
  run_sync(run_workload(rounds(2), "token", 1'000'000'000, client));
  EXPECT_EQ(op_sequence(client.log_.lines),
            (std::vector<std::string>{"invoke acquire", "ok acquire", "invoke release", "ok release", "invoke acquire",
                                      "ok acquire", "invoke release", "ok release"}));
  const Json& granted = client.log_.lines[1];
  EXPECT_EQ(granted["process"], 7);
  EXPECT_EQ(granted["token"], "t1");
  EXPECT_EQ(granted["fencing"], 1);
  EXPECT_FALSE(granted.contains("thread"));  // one thread per process
  ASSERT_EQ(client.resources.size(), 1u);
  EXPECT_EQ(client.resources[0].value, 2);  // both writes landed, each on the value it read
  EXPECT_EQ(client.seams_asked, std::vector<OwnerId>{0});
}

TEST(Workload, StopsStartingRoundsAtTheRunsEnd) {
  TestClient client;
  run_sync(run_workload(rounds(1000), "token", 1, client));  // the first hold already passes the end
  EXPECT_EQ(client.lock_.acquires, 1);
}

TEST(Workload, ARedisErrorIsTheOutcomeAndTheClientStops) {
  TestClient client;
  client.lock_.refuse = true;
  run_sync(run_workload(rounds(5), "token", 1'000'000'000, client));
  ASSERT_EQ(client.log_.lines.size(), 2u);
  EXPECT_EQ(client.log_.lines[1]["type"], "fail");
  EXPECT_EQ(client.log_.lines[1]["error"], true);
}

// A failed acquire says what it saw of the lock: when it last found it held ("refused_at", in true time), that
// no attempt did ("not_refused"), or that no attempt got a reply ("unreachable"). bounded_unavailability takes a
// fail as evidence of a held lock only with the first, and at that time, not the fail's.
TEST(Workload, AFailedAcquireSaysWhenItLastFoundTheLockHeld) {
  struct Case {
    AcquireStatus status;
    std::optional<MonoTime> refused_at;
    const char* field;
    Json value;
  };
  for (const Case& expected : {Case{AcquireStatus::busy, MonoTime(1234), "refused_at", 1234},
                               Case{AcquireStatus::busy, std::nullopt, "result", "not_refused"},
                               Case{AcquireStatus::unreachable, std::nullopt, "result", "unreachable"}}) {
    TestClient client;
    client.lock_.fail_as = expected.status;
    client.lock_.refused_at = expected.refused_at;
    run_sync(run_workload(rounds(1), "token", 1'000'000'000, client));
    ASSERT_EQ(client.log_.lines.size(), 2u);
    const Json& failed = client.log_.lines[1];
    EXPECT_EQ(failed["type"], "fail");
    EXPECT_EQ(failed[expected.field], expected.value) << failed.dump();
    EXPECT_EQ(failed.contains("refused_at"), expected.refused_at.has_value()) << failed.dump();
  }
}

TEST(Workload, ThreadsShareOneLockObjectEachWithItsOwnSeams) {
  TestClient client;
  WorkloadConfig workload = rounds(2);
  workload.threads_per_process = 3;
  run_sync(run_workload(workload, "token", 1'000'000'000, client));
  EXPECT_EQ(client.seams_asked, (std::vector<OwnerId>{1, 2, 3}));
  for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(client.resources[k].threads, (std::vector<int>(2, static_cast<int>(k + 1))));
  for (const Json& line : client.log_.lines) EXPECT_TRUE(line.contains("thread"));
}

TEST(Workload, ThreadsNeedAVariantWithAPublicType) {
  TestClient client;
  WorkloadConfig workload = rounds(1);
  workload.threads_per_process = 2;
  EXPECT_THROW(run_sync(run_workload(workload, "exists-then-set", 1'000'000'000, client)), std::invalid_argument);
}

TEST(Workload, AThreadsFailureIsRethrownOnceEveryThreadFinished) {
  TestClient client;
  client.failing_thread = 2;  // spawned, so it runs (and fails at its first read) before thread 1 here
  WorkloadConfig workload = rounds(2);
  workload.threads_per_process = 2;
  EXPECT_THROW(run_sync(run_workload(workload, "token", 1'000'000'000, client)), std::runtime_error);
  // Thread 1 still made its rounds (failing to acquire: thread 2 died holding the shared lock object).
  int thread_one_acquires = 0;
  for (const Json& line : client.log_.lines) {
    thread_one_acquires += line["thread"] == 1 && line["type"] == "invoke" && line["f"] == "acquire";
  }
  EXPECT_EQ(thread_one_acquires, 2);
}

// The redis backend's workers wrote their op lines by dumping a Json object; HistoryLine::unnumbered gives the
// same text, so their histories keep their shape.
TEST(Workload, AnUnnumberedOpLineIsTheJsonTheWorkersWrote) {
  TestClient client;
  client.clock_.now_us = 1234;
  HistoryLine line = op_fields(client.log_, 3, "ok", "acquire", "orders:\"42\"", 2);
  line.add("nested", true).add("detail", "caf\xc3\xa9");
  const Json fields{{"t", 1234},        {"kind", "op"},        {"type", "ok"},  {"process", 3},
                    {"f", "acquire"},    {"key", "orders:\"42\""}, {"local", 1234}, {"thread", 2},
                    {"nested", true},    {"detail", "caf\xc3\xa9"}};
  EXPECT_EQ(std::move(line).unnumbered(), fields.dump());
}

}  // namespace
}  // namespace lockcheck::sim
