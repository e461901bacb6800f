// What the judge protocol costs per operation: lockcheck's Mutex driven in process (try_acquire, release) and
// the same Mutex in its adapter process driven over the protocol (acquire, use, release: JSON lines over
// pipes), cycle by cycle against one private redis-server, interleaved so that the machine's load favours
// neither. Counters: direct_cycles_per_s and judged_cycles_per_s (real time), judged_over_direct (the judged
// cycle's speed as a fraction of the direct one's), protocol_us_per_request (the extra real time per request
// of the judged cycle: three requests, two of which the direct cycle also sends to Redis).
#include <benchmark/benchmark.h>

#include <chrono>
#include <string>

#include "external_lock.hpp"
#include "lockcheck/clock.hpp"
#include "lockcheck/mutex.hpp"
#include "redis_server.hpp"

namespace {

using Clock = std::chrono::steady_clock;

void BM_ProtocolOverhead(benchmark::State& state) {
  lockcheck::testing::RedisServer server;
  lockcheck::Client client(lockcheck::ConnectionOptions{.host = server.host(), .port = server.port()});
  lockcheck::Mutex direct(client, "bench:judge:direct");
  lockcheck::judge::ExternalProcess adapter(
      {LOCKCHECK_JUDGE_MUTEX_PATH},
      {"LOCKCHECK_REDIS=" + server.host() + ":" + std::to_string(server.port()), "LOCKCHECK_KEY=bench:judge:adapter",
       "LOCKCHECK_TTL_MS=10000", "LOCKCHECK_CLIENT_NAME=bench"},
      "/dev/null");
  lockcheck::SystemClock clock;
  lockcheck::judge::ExternalLock judged(adapter, clock, {lockcheck::Millis(10000), lockcheck::Millis(500), lockcheck::Millis(0), "bench-", std::chrono::milliseconds(10000), 0});
  Clock::duration direct_time{}, judged_time{};
  const auto direct_cycle = [&] {
    std::optional<lockcheck::Lease> lease = direct.try_acquire(lockcheck::Micros(0));
    if (!lease || direct.release(*lease) != lockcheck::ReleaseStatus::released) state.SkipWithError("direct cycle failed");
  };
  const auto judged_cycle = [&] {
    lockcheck::AcquireResult acquired = lockcheck::run_sync(judged.acquire("bench:judge:adapter", lockcheck::Micros(0)));
    if (!acquired.lease || judged.use().type != lockcheck::judge::Reply::Type::ok ||
        lockcheck::run_sync(judged.release(*acquired.lease)) != lockcheck::ReleaseStatus::released) {
      state.SkipWithError("judged cycle failed");
    }
  };
  const auto timed = [](auto&& cycle) {
    const auto start = Clock::now();
    cycle();
    return Clock::now() - start;
  };
  bool direct_first = true;
  for (auto _ : state) {
    if (direct_first) {
      direct_time += timed(direct_cycle);
      judged_time += timed(judged_cycle);
    } else {
      judged_time += timed(judged_cycle);
      direct_time += timed(direct_cycle);
    }
    direct_first = !direct_first;
  }
  const double iterations = static_cast<double>(state.iterations());
  const double direct_s = std::chrono::duration<double>(direct_time).count();
  const double judged_s = std::chrono::duration<double>(judged_time).count();
  state.counters["direct_cycles_per_s"] = iterations / direct_s;
  state.counters["judged_cycles_per_s"] = iterations / judged_s;
  state.counters["judged_over_direct"] = direct_s / judged_s;
  state.counters["protocol_us_per_request"] = (judged_s - direct_s) / iterations / 3 * 1e6;
  adapter.stop(std::chrono::milliseconds(2000));
}
BENCHMARK(BM_ProtocolOverhead)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
