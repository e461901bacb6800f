// Redlock acquire+release on 5 loopback redis-servers: lockcheck's parallel fan-out (about one round trip
// per phase) against a sequential loop over the same 5 nodes (what redis-plus-plus does), interleaved in
// one run so that machine noise hits both alike. Once directly over loopback (where a cycle is bound by CPU:
// 5 servers and the client share 2 cores), and once through our fault proxy adding 250 us each way per link,
// a same-datacenter round trip, where it is bound by round trips as in production.
// A second case puts one of the 5 nodes behind the proxy with a slow link (20 ms each way) and compares the
// acquire latency of Redlock, which returns once the quorum is decided, with a fan-out that waits for all.
// Counters: redlock_over_sequential (the speed-up by real time), each side's cycles/s, and each side's client
// CPU per cycle in microseconds (the servers run the same 5 SETs and 5 EVALSHAs for both).
//   ./build/tools/redlock_bench --benchmark_filter=RedlockVersusSequential --benchmark_repetitions=5 --benchmark_min_time=1
#include <benchmark/benchmark.h>
#include <hiredis/hiredis.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "cpu_time.hpp"
#include "lockcheck/client.hpp"
#include "lockcheck/scripts.hpp"
#include "lockcheck/sha1.hpp"
#include "lockcheck/variants/redlock.hpp"
#include "link_proxy.hpp"
#include "redis_server.hpp"

namespace {

using Clock = std::chrono::steady_clock;
std::vector<std::unique_ptr<lockcheck::testing::RedisServer>>* servers = nullptr;

// The ports clients use: the servers' own, or a delaying proxy in front of each.
std::vector<int> ports;

// The baseline: lock each node in turn, then unlock each in turn.
class SequentialRedlock {
 public:
  SequentialRedlock() : sha_(lockcheck::sha1_hex(lockcheck::scripts::token_release)) {
    const std::string source(lockcheck::scripts::token_release);
    for (int port : ports) {
      contexts_.push_back(redisConnect("127.0.0.1", port));
      freeReplyObject(redisCommand(contexts_.back(), "SCRIPT LOAD %b", source.data(), source.size()));
    }
  }
  ~SequentialRedlock() {
    for (auto* context : contexts_) redisFree(context);
  }
  int cycle(const std::string& key, const std::string& token) {
    int granted = 0;
    for (auto* context : contexts_) {
      auto* reply = static_cast<redisReply*>(redisCommand(context, "SET %s %s NX PX 10000", key.c_str(), token.c_str()));
      granted += reply != nullptr && reply->type == REDIS_REPLY_STATUS ? 1 : 0;
      if (reply != nullptr) freeReplyObject(reply);
    }
    for (auto* context : contexts_) {
      auto* reply = static_cast<redisReply*>(redisCommand(context, "EVALSHA %s 1 %s %s", sha_.c_str(), key.c_str(), token.c_str()));
      if (reply != nullptr) freeReplyObject(reply);
    }
    return granted;
  }

 private:
  std::vector<redisContext*> contexts_;
  std::string sha_;
};

std::vector<lockcheck::ConnectionOptions> nodes() {
  std::vector<lockcheck::ConnectionOptions> out;
  for (int port : ports) out.push_back({.host = "127.0.0.1", .port = port});
  return out;
}

void BM_RedlockVersusSequential(benchmark::State& state) {
  const std::int64_t delay_us = state.range(0);
  std::vector<int> server_ports;
  for (const auto& server : *servers) server_ports.push_back(server->port());
  ports = server_ports;
  // One proxy thread for all five links: with one thread per link, a fan-out's five requests woke five
  // threads per hop, queued behind each other on a 2-core machine, and the parallel side paid for it.
  std::unique_ptr<lockcheck::redis_backend::LinkProxy> proxy;
  if (delay_us != 0) {
    proxy = std::make_unique<lockcheck::redis_backend::LinkProxy>(server_ports, delay_us);
    for (std::size_t link = 0; link < ports.size(); ++link) ports[link] = proxy->port(link);
  }
  SequentialRedlock sequential;
  lockcheck::Client client(nodes());
  lockcheck::Redlock lock(client.port(), client.clock(), client.entropy(), lockcheck::LockOptions{});
  Clock::duration sequential_time{}, parallel_time{};
  double sequential_cpu = 0, parallel_cpu = 0;  // this thread's; the servers do the same work for both
  for (auto _ : state) {
    const auto t0 = Clock::now();
    const double c0 = lockcheck::testing::thread_cpu_seconds();
    if (sequential.cycle("bench:sequential", "0123456789abcdef0123456789abcdef") != 5) state.SkipWithError("sequential lock failed");
    const double c1 = lockcheck::testing::thread_cpu_seconds();
    const auto t1 = Clock::now();
    auto acquired = lockcheck::run_sync(lock.acquire("bench:redlock", lockcheck::Micros(0)));
    if (acquired.status != lockcheck::AcquireStatus::acquired) state.SkipWithError("redlock acquire failed");
    lockcheck::run_sync(lock.release(*acquired.lease));
    const double c2 = lockcheck::testing::thread_cpu_seconds();
    const auto t2 = Clock::now();
    sequential_time += t1 - t0;
    parallel_time += t2 - t1;
    sequential_cpu += c1 - c0;
    parallel_cpu += c2 - c1;
  }
  const double iterations = static_cast<double>(state.iterations());
  const double sequential_rate = iterations / std::chrono::duration<double>(sequential_time).count();
  const double parallel_rate = iterations / std::chrono::duration<double>(parallel_time).count();
  state.counters["sequential_cycles_per_s"] = sequential_rate;
  state.counters["redlock_cycles_per_s"] = parallel_rate;
  state.counters["redlock_over_sequential"] = parallel_rate / sequential_rate;  // by real time: the claim
  state.counters["redlock_cpu_us"] = parallel_cpu / iterations * 1e6;            // client CPU per cycle
  state.counters["sequential_cpu_us"] = sequential_cpu / iterations * 1e6;
}
BENCHMARK(BM_RedlockVersusSequential)->ArgName("link_delay_us")->Arg(0)->Arg(250)->UseRealTime();

double median_ms(std::vector<Clock::duration> samples) {
  if (samples.empty()) return 0;
  std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 2), samples.end());
  return std::chrono::duration<double, std::milli>(samples[samples.size() / 2]).count();
}

// Acquire latency with one slow node: Redlock (stops at the quorum) against SET NX PX on every node awaiting
// all replies (what acquisition did before), interleaved. Releases are not timed.
void BM_RedlockOneSlowNode(benchmark::State& state) {
  const std::int64_t slow_delay_us = state.range(0);
  lockcheck::redis_backend::LinkProxy slow_link((*servers).back()->port(), slow_delay_us);
  ports.clear();
  for (const auto& server : *servers) ports.push_back(server->port());
  ports.back() = slow_link.port();
  lockcheck::Client client(nodes());
  lockcheck::Redlock lock(client.port(), client.clock(), client.entropy(), lockcheck::LockOptions{});
  std::vector<Clock::duration> quorum_times, all_times;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    auto acquired = lockcheck::run_sync(lock.acquire("bench:quorum", lockcheck::Micros(0)));
    const auto t1 = Clock::now();
    if (acquired.status != lockcheck::AcquireStatus::acquired) state.SkipWithError("redlock acquire failed");
    else lockcheck::run_sync(lock.release(*acquired.lease));
    std::vector<lockcheck::NodeCommand> sets, deletes;
    for (std::size_t node = 0; node < ports.size(); ++node) {
      sets.push_back({node, {"SET", "bench:all", "0123456789abcdef", "NX", "PX", "10000"}});
      deletes.push_back({node, {"DEL", "bench:all"}});
    }
    const auto t2 = Clock::now();
    lockcheck::run_sync(client.port().fan_out(std::move(sets)));
    const auto t3 = Clock::now();
    lockcheck::run_sync(client.port().fan_out(std::move(deletes)));
    quorum_times.push_back(t1 - t0);
    all_times.push_back(t3 - t2);
  }
  state.counters["acquire_p50_ms_quorum"] = median_ms(quorum_times);
  state.counters["acquire_p50_ms_all"] = median_ms(all_times);
}
BENCHMARK(BM_RedlockOneSlowNode)->ArgName("slow_link_delay_us")->Arg(20000)->Iterations(40)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::unique_ptr<lockcheck::testing::RedisServer>> started;
  for (int i = 0; i < 5; ++i) started.push_back(std::make_unique<lockcheck::testing::RedisServer>());
  servers = &started;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
