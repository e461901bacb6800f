// The lock scripts on the embedded mock against the same commands through hiredis to a private loopback
// redis-server, interleaved in one run: each iteration runs one lock cycle on redis-server, then
// kMockCyclesPerIteration cycles on the mock, each side timed by real time and by CPU time, so whatever the
// machine does hits both alike. Each benchmark prints, as counters:
//   mock_ops_per_s, redis_ops_per_s   lock operations (an acquire or a release) per second of real time
//   mock_over_redis_real              how many times faster the mock is per operation, by real time
//   mock_over_redis_cpu               the same by CPU time: the mock's thread against the hiredis client's
//                                     thread plus redis-server's own CPU (all its threads, from /proc)
//   ./build/sim/redis/bench/mock_vs_redis_bench --benchmark_repetitions=3
#include <benchmark/benchmark.h>

#include <chrono>
#include <functional>
#include <memory>

#include "cpu_time.hpp"
#include "hiredis_client.hpp"
#include "redis/server/node.hpp"
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

// One lock cycle: an acquire, then a release that answers 1 when it worked.
struct Cycle {
  Command acquire, release;
};
using Call = std::function<Reply(const Command&)>;

Cycle token_cycle(const Call& call) {
  const std::string sha = call({"SCRIPT", "LOAD", kRelease}).text;
  return {{"SET", "lock", "token-1", "PX", "30000", "NX"}, {"EVALSHA", sha, "1", "lock", "token-1"}};
}

Cycle reentrant_cycle(const Call& call) {
  const std::string acquire_sha = call({"SCRIPT", "LOAD", kReentrantAcquire}).text;
  const std::string release_sha = call({"SCRIPT", "LOAD", kReentrantRelease}).text;
  return {{"EVALSHA", acquire_sha, "1", "rlock", "30000", "owner-1"}, {"EVALSHA", release_sha, "1", "rlock", "owner-1", "30000"}};
}

using Clock = std::chrono::steady_clock;
constexpr int kMockCyclesPerIteration = 16;  // a mock cycle is ~1/20 of a loopback one: time them in batches

struct Side {
  Clock::duration real{};
  double cpu_seconds = 0;
  std::int64_t cycles = 0;
};

template <typename Target>
void run_cycles(benchmark::State& state, Target& target, const Cycle& cycle, int count, Side& side) {
  const Clock::time_point real_start = Clock::now();
  const double cpu_start = lockcheck::testing::thread_cpu_seconds();
  for (int i = 0; i < count; ++i) {
    Reply acquired = target.call(cycle.acquire);
    Reply released = target.call(cycle.release);
    if (!released.is_integer(1)) state.SkipWithError(("release failed: " + to_string(released)).c_str());
    benchmark::DoNotOptimize(acquired);
  }
  side.cpu_seconds += lockcheck::testing::thread_cpu_seconds() - cpu_start;
  side.real += Clock::now() - real_start;
  side.cycles += count;
}

void mock_versus_redis(benchmark::State& state, Cycle (*make_cycle)(const Call&)) {
  MockTarget mock;
  RedisTarget& redis = redis_target();
  const Cycle on_mock = make_cycle([&](const Command& command) { return mock.call(command); });
  const Cycle on_redis = make_cycle([&](const Command& command) { return redis.call(command); });
  Side mock_side, redis_side;
  const double server_cpu_start = lockcheck::testing::process_cpu_seconds(redis.server.pid());
  for (auto _ : state) {
    run_cycles(state, redis, on_redis, 1, redis_side);
    run_cycles(state, mock, on_mock, kMockCyclesPerIteration, mock_side);
  }
  const double server_cpu = lockcheck::testing::process_cpu_seconds(redis.server.pid()) - server_cpu_start;
  // Per lock operation (two per cycle).
  const double mock_real = std::chrono::duration<double>(mock_side.real).count() / static_cast<double>(2 * mock_side.cycles);
  const double redis_real = std::chrono::duration<double>(redis_side.real).count() / static_cast<double>(2 * redis_side.cycles);
  const double mock_cpu = mock_side.cpu_seconds / static_cast<double>(2 * mock_side.cycles);
  const double redis_cpu = (redis_side.cpu_seconds + server_cpu) / static_cast<double>(2 * redis_side.cycles);
  state.counters["mock_ops_per_s"] = 1 / mock_real;
  state.counters["redis_ops_per_s"] = 1 / redis_real;
  state.counters["mock_over_redis_real"] = redis_real / mock_real;
  state.counters["mock_over_redis_cpu"] = redis_cpu / mock_cpu;
}

void BM_TokenSetAndRelease(benchmark::State& state) { mock_versus_redis(state, token_cycle); }
void BM_ReentrantAcquireRelease(benchmark::State& state) { mock_versus_redis(state, reentrant_cycle); }
BENCHMARK(BM_TokenSetAndRelease)->UseRealTime();
BENCHMARK(BM_ReentrantAcquireRelease)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
