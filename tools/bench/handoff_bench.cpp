// Hand-off latency under contention: from the moment a holder starts its release to the moment the first of
// the clients already waiting for the lock acquires it, for redisson-like (waiters sleep on pub/sub, woken by
// the release script's PUBLISH) against the token lock (waiters poll with backoff, production defaults
// 2..50 ms), in the same run against one private redis-server. Each round: thread 0 takes the lock, three
// waiters start acquiring, thread 0 holds 30 ms (pollers are then deep in their backoff, subscribers asleep
// on the channel) and releases; the first waiter to get the lock is one sample. Every thread has its own
// connection and lock object.
//
// The yardstick is a PING round trip after the same 30 ms of idleness: on a virtual machine an idle vCPU
// takes a long time to wake (here a PING after 30 ms idle takes ~10x a PING in a busy loop), and a hand-off
// always starts from idle. A hand-off from the start of the release can't take less than two round trips
// (the release, then the winner's acquire); the part after the release call returns is the one that pub/sub
// can shrink to about one round trip, and polling can't.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <optional>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "lockcheck/client.hpp"
#include "lockcheck/thread_spawner.hpp"
#include "lockcheck/variants/registry.hpp"
#include "redis_server.hpp"

namespace {

using SteadyClock = std::chrono::steady_clock;
lockcheck::testing::RedisServer* server = nullptr;

constexpr int kThreads = 4;
constexpr int kRounds = 20;
constexpr auto kHold = std::chrono::milliseconds(30);

struct Samples {
  std::mutex mutex;
  std::vector<double> handoff_us;  // release start -> first waiter's acquire returned
  std::vector<double> release_us;  // release start -> the holder's release call returned
};

double percentile(std::vector<double> values, double fraction) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[static_cast<std::size_t>(fraction * static_cast<double>(values.size() - 1))];
}

// p50s per variant, for the summary printed at the end.
double token_p50_us = 0, redisson_p50_us = 0, redisson_release_p50_us = 0;

void contend(const std::string& variant, Samples& samples) {
  std::barrier sync(kThreads);
  std::atomic<std::int64_t> released_ns{0};
  std::atomic<int> round_winner{-1};
  auto now_ns = [] { return std::chrono::duration_cast<std::chrono::nanoseconds>(SteadyClock::now().time_since_epoch()).count(); };
  const std::string key = "bench:handoff:" + variant;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      lockcheck::Client client({.host = server->host(), .port = server->port()});
      lockcheck::ThreadSpawner spawner;
      lockcheck::LockOptions options;
      options.ttl = std::chrono::seconds(10);
      lockcheck::VariantParams params;
      params.spawner = &spawner;
      auto lock = lockcheck::make_lock(variant, client.port(), client.clock(), client.entropy(), options, params);
      for (int round = 0; round < kRounds; ++round) {
        std::optional<lockcheck::Lease> held;
        if (t == 0) {
          round_winner = -1;
          held = lockcheck::run_sync(lock->acquire(key, lockcheck::Micros(5000000))).lease;
        }
        sync.arrive_and_wait();  // thread 0 holds the lock
        if (t == 0) {
          std::this_thread::sleep_for(kHold);
          released_ns = now_ns();
          if (held) lockcheck::run_sync(lock->release(*held));
          const double release_us = static_cast<double>(now_ns() - released_ns.load()) / 1000.0;
          std::lock_guard lock_samples(samples.mutex);
          samples.release_us.push_back(release_us);
        } else {
          lockcheck::AcquireResult result = lockcheck::run_sync(lock->acquire(key, lockcheck::Micros(5000000)));
          const std::int64_t got_ns = now_ns();
          int nobody = -1;
          if (result.lease && round_winner.compare_exchange_strong(nobody, t)) {
            std::lock_guard lock_samples(samples.mutex);
            samples.handoff_us.push_back(static_cast<double>(got_ns - released_ns.load()) / 1000.0);
          }
          if (result.lease) lockcheck::run_sync(lock->release(*result.lease));
        }
        sync.arrive_and_wait();  // every waiter had its turn
      }
    });
  }
  for (auto& thread : threads) thread.join();
}

void BM_Handoff(benchmark::State& state, const std::string& variant) {
  Samples samples;
  for (auto _ : state) {
    contend(variant, samples);
    const double p50 = percentile(samples.handoff_us, 0.5);
    state.SetIterationTime(p50 / 1e6);
  }
  const double p50 = percentile(samples.handoff_us, 0.5);
  state.counters["handoff_p50_us"] = p50;
  state.counters["handoff_p99_us"] = percentile(samples.handoff_us, 0.99);
  state.counters["handoffs"] = static_cast<double>(samples.handoff_us.size());
  state.counters["release_p50_us"] = percentile(samples.release_us, 0.5);
  (variant == "token" ? token_p50_us : redisson_p50_us) = p50;
  if (variant != "token") redisson_release_p50_us = percentile(samples.release_us, 0.5);
}
// One PING round trip on the same server: in a busy loop, and after the hold's 30 ms of idleness (the yardstick).
double ping_p50_us = 0, idle_ping_p50_us = 0;
// PING round trips, each after `idle` without any traffic; returns their p50.
double ping_p50(benchmark::State& state, std::chrono::milliseconds idle) {
  lockcheck::Client client({.host = server->host(), .port = server->port()});
  std::vector<double> rtt_us;
  for (auto _ : state) {
    if (idle.count() > 0) std::this_thread::sleep_for(idle);
    const auto start = SteadyClock::now();
    lockcheck::CallResult pong = lockcheck::run_sync(client.port().call(0, {"PING"}));
    if (!pong.replied()) state.SkipWithError("PING failed");
    rtt_us.push_back(std::chrono::duration<double, std::micro>(SteadyClock::now() - start).count());
  }
  return percentile(rtt_us, 0.5);
}
void BM_PingAfterIdle(benchmark::State& state) {
  idle_ping_p50_us = ping_p50(state, kHold);
  state.counters["idle_rtt_p50_us"] = idle_ping_p50_us;
}
void BM_PingRoundTrip(benchmark::State& state) {
  ping_p50_us = ping_p50(state, std::chrono::milliseconds(0));
  state.counters["rtt_p50_us"] = ping_p50_us;
}
BENCHMARK(BM_PingAfterIdle)->Iterations(40)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PingRoundTrip)->Iterations(2000)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Handoff, token_polling, std::string("token"))->Iterations(1)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Handoff, redisson_like_pubsub, std::string("redisson-like"))->Iterations(1)->UseManualTime()->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  lockcheck::testing::RedisServer redis;
  server = &redis;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (token_p50_us > 0 && redisson_p50_us > 0 && idle_ping_p50_us > 0) {
    const double after_release_us = redisson_p50_us - redisson_release_p50_us;
    std::printf("hand-off p50 from the release's start: redisson-like %.0f us vs token polling %.0f us: %.1fx faster\n"
                "round trip p50: %.0f us after 30 ms idle (the yardstick), %.0f us in a busy loop\n"
                "redisson-like: release call %.0f us + %.0f us to the waiter's acquire = %.1f + %.1f idle round trips\n",
                redisson_p50_us, token_p50_us, token_p50_us / redisson_p50_us, idle_ping_p50_us, ping_p50_us,
                redisson_release_p50_us, after_release_us, redisson_release_p50_us / idle_ping_p50_us,
                after_release_us / idle_ping_p50_us);
  }
  return 0;
}
