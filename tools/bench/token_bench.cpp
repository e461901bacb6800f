// Uncontended acquire+release through lockcheck::Mutex against a raw hiredis loop sending the same two
// commands byte for byte (SET NX PX; EVALSHA compare-and-delete; see RawCycle), interleaved in one run so
// machine noise hits both alike; and the contended case: 8 threads on one key.
//   ./build/tools/token_bench --benchmark_filter=MutexVersusRaw --benchmark_min_time=2 --benchmark_repetitions=3
#include <benchmark/benchmark.h>
#include <hiredis/hiredis.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "cpu_time.hpp"
#include "lockcheck/mutex.hpp"
#include "lockcheck/scripts.hpp"
#include "lockcheck/sha1.hpp"
#include "redis_server.hpp"

namespace {

using Clock = std::chrono::steady_clock;
lockcheck::testing::RedisServer* server = nullptr;

lockcheck::ConnectionOptions connection() { return {.host = server->host(), .port = server->port()}; }

// The baseline: what lockcheck::Mutex sends, written by hand with hiredis, byte for byte on the wire and with
// the same socket options: hiredis's blocking connection (TCP_NODELAY, as hiredis sets it) connected under
// the library's connect timeout with its command timeout as the socket's send and receive timeout
// (ConnectionOptions' defaults), a PING after connecting, then per cycle `SET <key> <32 hex digits> NX PX
// <LockOptions' default TTL>` and `EVALSHA <sha of token_release.lua> 1 <key> <token>`. Keys of the same length.
class RawCycle {
 public:
  RawCycle() {
    const lockcheck::ConnectionOptions defaults;
    context_ = redisConnectWithTimeout(server->host().c_str(), server->port(), timeval_of(defaults.connect_timeout));
    redisSetTimeout(context_, timeval_of(defaults.command_timeout));
    freeReplyObject(redisCommand(context_, "PING"));
    ttl_ms_ = std::to_string(lockcheck::LockOptions{}.ttl.count());
    sha_ = lockcheck::sha1_hex(lockcheck::scripts::token_release);
    const std::string source(lockcheck::scripts::token_release);
    freeReplyObject(redisCommand(context_, "SCRIPT LOAD %b", source.data(), source.size()));
  }
  ~RawCycle() { redisFree(context_); }
  bool run(const std::string& key, const std::string& token) {
    auto* set = static_cast<redisReply*>(redisCommand(context_, "SET %s %s NX PX %s", key.c_str(), token.c_str(), ttl_ms_.c_str()));
    const bool ok = set != nullptr && set->type == REDIS_REPLY_STATUS;
    if (set != nullptr) freeReplyObject(set);
    auto* del = static_cast<redisReply*>(redisCommand(context_, "EVALSHA %s 1 %s %s", sha_.c_str(), key.c_str(), token.c_str()));
    const bool released = del != nullptr && del->type == REDIS_REPLY_INTEGER && del->integer == 1;
    if (del != nullptr) freeReplyObject(del);
    return ok && released;
  }

 private:
  static timeval timeval_of(lockcheck::Millis ms) {
    return timeval{.tv_sec = ms.count() / 1000, .tv_usec = static_cast<suseconds_t>(ms.count() % 1000 * 1000)};
  }
  redisContext* context_ = nullptr;
  std::string ttl_ms_;
  std::string sha_;
};

void BM_RawHiredisCycle(benchmark::State& state) {
  RawCycle raw;
  for (auto _ : state) {
    if (!raw.run("bench:raw", "0123456789abcdef0123456789abcdef")) state.SkipWithError("raw cycle failed");
  }
  state.counters["cycles_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RawHiredisCycle)->UseRealTime();

void BM_MutexCycle(benchmark::State& state) {
  lockcheck::Client client(connection());
  lockcheck::Mutex mutex(client, "bench:mutex");
  for (auto _ : state) {
    mutex.lock();
    mutex.unlock();
  }
  state.counters["cycles_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MutexCycle)->UseRealTime();

double median_seconds(std::vector<Clock::duration> samples) {
  if (samples.empty()) return 0;
  const auto middle = samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 2);
  std::nth_element(samples.begin(), middle, samples.end());
  return std::chrono::duration<double>(*middle).count();
}

// One raw cycle and one library cycle per iteration: the ratio is measured under the same conditions. The
// order alternates, so whatever the first cycle of a pair leaves behind (a server or vCPU still awake, warm
// caches) favours neither side. Counters: raw_cycles_per_s and lib_cycles_per_s (real time), lib_over_raw
// (the library's speed as a fraction of raw hiredis, by real time), lib_over_raw_p50 (by median cycle),
// lib_over_raw_cpu (by this thread's CPU time per cycle; the server's CPU is the same work for both).
void BM_MutexVersusRaw(benchmark::State& state) {
  RawCycle raw;
  lockcheck::Client client(connection());
  lockcheck::Mutex mutex(client, "bench:pair:lib");
  Clock::duration raw_time{}, lib_time{};
  double raw_cpu = 0, lib_cpu = 0;
  auto timed = [](double& cpu, auto&& cycle) {
    const auto start = Clock::now();
    const double cpu_start = lockcheck::testing::thread_cpu_seconds();
    cycle();
    cpu += lockcheck::testing::thread_cpu_seconds() - cpu_start;
    return Clock::now() - start;
  };
  auto raw_cycle = [&] {
    if (!raw.run("bench:pair:raw", "0123456789abcdef0123456789abcdef")) state.SkipWithError("raw cycle failed");
  };
  auto lib_cycle = [&] {
    mutex.lock();
    mutex.unlock();
  };
  // Every cycle's time too: on a shared machine a few preempted cycles move the means; the medians show the
  // typical cycle.
  std::vector<Clock::duration> raw_cycles, lib_cycles;
  auto record = [](Clock::duration& total, std::vector<Clock::duration>& cycles, Clock::duration took) {
    total += took;
    if (cycles.size() < 10'000'000) cycles.push_back(took);
  };
  bool raw_first = true;
  for (auto _ : state) {
    if (raw_first) {
      record(raw_time, raw_cycles, timed(raw_cpu, raw_cycle));
      record(lib_time, lib_cycles, timed(lib_cpu, lib_cycle));
    } else {
      record(lib_time, lib_cycles, timed(lib_cpu, lib_cycle));
      record(raw_time, raw_cycles, timed(raw_cpu, raw_cycle));
    }
    raw_first = !raw_first;
  }
  state.counters["lib_over_raw_p50"] = median_seconds(raw_cycles) / median_seconds(lib_cycles);
  const double iterations = static_cast<double>(state.iterations());
  const double raw_rate = iterations / std::chrono::duration<double>(raw_time).count();
  const double lib_rate = iterations / std::chrono::duration<double>(lib_time).count();
  state.counters["raw_cycles_per_s"] = raw_rate;
  state.counters["lib_cycles_per_s"] = lib_rate;
  state.counters["lib_over_raw"] = lib_rate / raw_rate;
  state.counters["lib_over_raw_cpu"] = raw_cpu / lib_cpu;
}
BENCHMARK(BM_MutexVersusRaw)->UseRealTime();

// 8 threads, each with its own connection, take turns on one key; each does `per_thread` acquisitions.
void BM_Contended8Threads(benchmark::State& state) {
  constexpr int kThreads = 8;
  const int per_thread = static_cast<int>(state.range(0));
  double total_acquisitions = 0, total_seconds = 0;
  std::vector<double> waits_ms;
  for (auto _ : state) {
    std::mutex waits_mutex;
    waits_ms.clear();
    const auto start = Clock::now();
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&] {
        lockcheck::Client client(connection());
        lockcheck::Mutex mutex(client, "bench:contended");
        std::vector<double> local;
        for (int i = 0; i < per_thread; ++i) {
          const auto before = Clock::now();
          mutex.lock();
          local.push_back(std::chrono::duration<double, std::milli>(Clock::now() - before).count());
          mutex.unlock();
        }
        std::lock_guard lock(waits_mutex);
        waits_ms.insert(waits_ms.end(), local.begin(), local.end());
      });
    }
    for (auto& thread : threads) thread.join();
    total_seconds += std::chrono::duration<double>(Clock::now() - start).count();
    total_acquisitions += kThreads * per_thread;
  }
  std::sort(waits_ms.begin(), waits_ms.end());
  state.counters["acquisitions_per_s"] = total_acquisitions / total_seconds;
  state.counters["p50_wait_ms"] = waits_ms[waits_ms.size() / 2];
  state.counters["p99_wait_ms"] = waits_ms[std::min(waits_ms.size() - 1, waits_ms.size() * 99 / 100)];
}
BENCHMARK(BM_Contended8Threads)->Arg(200)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  lockcheck::testing::RedisServer redis;
  server = &redis;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
