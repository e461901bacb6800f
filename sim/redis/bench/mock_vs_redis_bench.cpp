// EVALSHA of the lock scripts on the embedded mock versus the same commands through hiredis against a
// private loopback redis-server, in one run; prints ops/s and the mock/Redis speed ratio.
//   ./build/sim/redis/bench/mock_vs_redis_bench
#include <benchmark/benchmark.h>

#include <iostream>
#include <map>
#include <memory>

#include "hiredis_client.hpp"
#include "lockcheck/sha1.hpp"
#include "redis/node.hpp"
#include "redis_server.hpp"

namespace {

using lockcheck::Command;
using lockcheck::Reply;
using lockcheck::mock::Node;
using lockcheck::mock::NodeOptions;
using lockcheck::mock::Session;

// The token lock's compare-and-delete (lib/scripts/token_release.lua).
const std::string kRelease =
    "if redis.call('get', KEYS[1]) == ARGV[1] then\n  return redis.call('del', KEYS[1])\nend\nreturn 0\n";

// A reentrant hash lock: acquire (ARGV[1] TTL ms, ARGV[2] owner) and release (ARGV[1] owner, ARGV[2] TTL ms).
const std::string kReentrantAcquire = R"lua(
if redis.call('exists', KEYS[1]) == 0 or redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
  redis.call('hincrby', KEYS[1], ARGV[2], 1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end
return redis.call('pttl', KEYS[1])
)lua";
const std::string kReentrantRelease = R"lua(
if redis.call('hexists', KEYS[1], ARGV[1]) == 0 then return nil end
local counter = redis.call('hincrby', KEYS[1], ARGV[1], -1)
if counter > 0 then
  redis.call('pexpire', KEYS[1], ARGV[2])
  return 0
end
redis.call('del', KEYS[1])
return 1
)lua";

// Anything that answers Commands: the mock in-process, or hiredis to the real server.
struct MockTarget {
  std::int64_t now_ms = 1'700'000'000'000;
  Node node{NodeOptions{.clock = [this] { return now_ms; }}};
  Session session{.client_id = 1};
  Reply call(const Command& command) { return node.execute(command, session); }
};

struct RedisTarget {
  lockcheck::testing::RedisServer server;
  lockcheck::testing::HiredisClient client{server.host(), server.port()};
  Reply call(const Command& command) { return client.call(command); }
};

RedisTarget& redis_target() {
  static auto target = std::make_unique<RedisTarget>();
  return *target;
}

template <typename Target>
void token_cycle(benchmark::State& state, Target& target) {
  std::string sha = target.call({"SCRIPT", "LOAD", kRelease}).text;
  Command acquire{"SET", "lock", "token-1", "PX", "30000", "NX"};
  Command release{"EVALSHA", sha, "1", "lock", "token-1"};
  for (auto _ : state) {
    Reply acquired = target.call(acquire);
    Reply released = target.call(release);
    if (!released.is_integer(1)) state.SkipWithError(("release failed: " + to_string(released)).c_str());
    benchmark::DoNotOptimize(acquired);
  }
  state.SetItemsProcessed(state.iterations() * 2);  // lock operations: one acquire, one release
}

template <typename Target>
void reentrant_cycle(benchmark::State& state, Target& target) {
  std::string acquire_sha = target.call({"SCRIPT", "LOAD", kReentrantAcquire}).text;
  std::string release_sha = target.call({"SCRIPT", "LOAD", kReentrantRelease}).text;
  Command acquire{"EVALSHA", acquire_sha, "1", "rlock", "30000", "owner-1"};
  Command release{"EVALSHA", release_sha, "1", "rlock", "owner-1", "30000"};
  for (auto _ : state) {
    Reply acquired = target.call(acquire);
    Reply released = target.call(release);
    if (!released.is_integer(1)) state.SkipWithError(("release failed: " + to_string(released)).c_str());
    benchmark::DoNotOptimize(acquired);
  }
  state.SetItemsProcessed(state.iterations() * 2);  // two scripted lock operations per cycle
}

void BM_Mock_TokenSetAndRelease(benchmark::State& state) {
  MockTarget target;
  token_cycle(state, target);
}
void BM_Redis_TokenSetAndRelease(benchmark::State& state) { token_cycle(state, redis_target()); }
void BM_Mock_ReentrantAcquireRelease(benchmark::State& state) {
  MockTarget target;
  reentrant_cycle(state, target);
}
void BM_Redis_ReentrantAcquireRelease(benchmark::State& state) { reentrant_cycle(state, redis_target()); }

BENCHMARK(BM_Mock_TokenSetAndRelease);
BENCHMARK(BM_Redis_TokenSetAndRelease);
BENCHMARK(BM_Mock_ReentrantAcquireRelease);
BENCHMARK(BM_Redis_ReentrantAcquireRelease);

// Keeps each benchmark's time per iteration so the ratio can be printed at the end.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type == Run::RT_Iteration && !run.error_occurred) seconds_per_iteration_[run.benchmark_name()] = run.real_accumulated_time / static_cast<double>(run.iterations);
    }
    ConsoleReporter::ReportRuns(runs);
  }
  void print_ratios() const {
    for (const char* name : {"TokenSetAndRelease", "ReentrantAcquireRelease"}) {
      auto mock = seconds_per_iteration_.find(std::string("BM_Mock_") + name);
      auto real = seconds_per_iteration_.find(std::string("BM_Redis_") + name);
      if (mock == seconds_per_iteration_.end() || real == seconds_per_iteration_.end()) continue;
      std::cout << name << ": mock " << static_cast<long>(2.0 / mock->second) << " lock ops/s, redis "
                << static_cast<long>(2.0 / real->second) << " lock ops/s, mock is " << real->second / mock->second
                << "x faster per operation\n";
    }
  }

 private:
  std::map<std::string, double> seconds_per_iteration_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_ratios();
  benchmark::Shutdown();
  return 0;
}
