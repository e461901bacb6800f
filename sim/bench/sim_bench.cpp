// Simulated events per second (real and CPU time) and time compression (simulated seconds per wall second); the
// cluster and Sentinel topologies also against one node in the same run (over_one_node, over_one_node_cpu).
//   ./build/sim/bench/sim_bench --benchmark_repetitions=3
#include <benchmark/benchmark.h>

#include <chrono>
#include <ctime>

#include "core/simulate.hpp"
#include "properties/history.hpp"

namespace {

using lockcheck::sim::RunConfig;

RunConfig ten_clients_one_node() {
  RunConfig config;
  config.scenario = "bench-10-clients";
  config.clients = std::vector<lockcheck::sim::ClientConfig>(10);
  config.lock.ttl = lockcheck::Millis(1000);
  config.duration_us = 20000000;
  return config;
}

// Events, simulated time, wall time and this process's CPU time spent simulating.
struct Tally {
  std::uint64_t events = 0;
  std::int64_t simulated_us = 0;
  std::chrono::steady_clock::duration wall{};
  std::clock_t cpu_ticks = 0;

  void run(const RunConfig& config, std::uint64_t seed) {
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    const auto result = lockcheck::sim::simulate(config, seed);
    cpu_ticks += std::clock() - cpu_start;
    wall += std::chrono::steady_clock::now() - start;
    events += result.events;
    simulated_us += result.simulated_us;
    benchmark::DoNotOptimize(result.history.lines().size());
  }
  double wall_s() const { return std::chrono::duration<double>(wall).count(); }
  double events_per_s() const { return static_cast<double>(events) / wall_s(); }
  double events_per_cpu_s() const {
    return static_cast<double>(events) / (static_cast<double>(cpu_ticks) / static_cast<double>(CLOCKS_PER_SEC));
  }
};

void run_and_report(benchmark::State& state, const RunConfig& config) {
  Tally tally;
  std::uint64_t seed = 1;
  for (auto _ : state) tally.run(config, seed++);
  state.counters["events_per_s"] = tally.events_per_s();
  // Events per run (one seed each): divides a callgrind total into instructions per event.
  state.counters["events"] = benchmark::Counter(static_cast<double>(tally.events), benchmark::Counter::kAvgIterations);
  // By this process's CPU time too: on a shared machine the wall-clock rate says more about the load.
  state.counters["events_per_cpu_s"] = tally.events_per_cpu_s();
  state.counters["time_compression"] = static_cast<double>(tally.simulated_us) / 1e6 / tally.wall_s();
}

// `config` and the one-node baseline alternately, seed by seed, so their ratio is measured in the same run under
// the same load: events_per_s (this topology), one_node_events_per_s, over_one_node (their ratio), and the same
// by CPU time (events_per_cpu_s, over_one_node_cpu).
void versus_one_node(benchmark::State& state, const RunConfig& config) {
  const RunConfig baseline = ten_clients_one_node();
  Tally topology, one_node;
  std::uint64_t seed = 1;
  for (auto _ : state) {
    one_node.run(baseline, seed);
    topology.run(config, seed);
    ++seed;
  }
  state.counters["events_per_s"] = topology.events_per_s();
  state.counters["one_node_events_per_s"] = one_node.events_per_s();
  state.counters["over_one_node"] = topology.events_per_s() / one_node.events_per_s();
  state.counters["events_per_cpu_s"] = topology.events_per_cpu_s();
  state.counters["over_one_node_cpu"] = topology.events_per_cpu_s() / one_node.events_per_cpu_s();
}

void BM_TenClientsOneNode(benchmark::State& state) { run_and_report(state, ten_clients_one_node()); }
BENCHMARK(BM_TenClientsOneNode)->Unit(benchmark::kMillisecond)->UseRealTime();

// Heavy contention: short holds and think times keep the event rate, not the sleeping, in front.
void BM_TenClientsHotLoop(benchmark::State& state) {
  RunConfig config = ten_clients_one_node();
  config.workload.hold_min_us = 100;
  config.workload.hold_max_us = 500;
  config.workload.think_min_us = 100;
  config.workload.think_max_us = 500;
  config.duration_us = 2000000;
  run_and_report(state, config);
}
BENCHMARK(BM_TenClientsHotLoop)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same ten clients on a three-shard cluster: each command's slot is computed and routed by the client's
// ClusterPort and checked by the serving node; interleaved with the one-node run (over_one_node).
void BM_TenClientsThreeShardCluster(benchmark::State& state) {
  RunConfig config = ten_clients_one_node();
  config.scenario = "bench-10-clients-3-shards";
  config.cluster.shards = 3;
  config.nodes = lockcheck::sim::cluster_nodes(config.cluster);
  versus_one_node(state, config);
}
BENCHMARK(BM_TenClientsThreeShardCluster)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same clients finding the master through three sentinels (SentinelPort), the master with two replicas;
// interleaved with the one-node run (over_one_node).
void BM_TenClientsSentinel(benchmark::State& state) {
  RunConfig config = ten_clients_one_node();
  config.scenario = "bench-10-clients-sentinel";
  config.sentinel.sentinels = 3;
  config.sentinel.replicas = 2;
  config.nodes = lockcheck::sim::sentinel_nodes(config.sentinel);
  versus_one_node(state, config);
}
BENCHMARK(BM_TenClientsSentinel)->Unit(benchmark::kMillisecond)->UseRealTime();

// Redlock: 10 clients fanning out to five independent masters.
void BM_RedlockFiveNodes(benchmark::State& state) {
  RunConfig config = ten_clients_one_node();
  config.scenario = "bench-redlock-5-nodes";
  config.variant = "redlock";
  config.nodes = std::vector<lockcheck::sim::NodeConfig>(5);
  run_and_report(state, config);
}
BENCHMARK(BM_RedlockFiveNodes)->Unit(benchmark::kMillisecond)->UseRealTime();

// The checkers' side of a run: its history read as the simulator recorded it (what explore, shrink and `run` do),
// against the same history's text parsed (what `check` does with a file), alternately in the same run:
// ns_per_line (recorded) and text_ns_per_line, and text_over_recorded (their ratio).
void BM_ReadRecordedHistory(benchmark::State& state) {
  RunConfig config = ten_clients_one_node();
  config.variant = "redlock";
  config.nodes = std::vector<lockcheck::sim::NodeConfig>(5);
  const auto run = lockcheck::sim::simulate(config, 1);
  const std::vector<std::string>& text = run.history.lines();
  std::chrono::steady_clock::duration recorded{}, parsed{};
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(lockcheck::properties::parse_history(run.history).events.size());
    const auto middle = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(lockcheck::properties::parse_history_lines(text).events.size());
    parsed += std::chrono::steady_clock::now() - middle;
    recorded += middle - start;
  }
  const double lines = static_cast<double>(text.size()) * static_cast<double>(state.iterations());
  state.counters["ns_per_line"] = std::chrono::duration<double, std::nano>(recorded).count() / lines;
  state.counters["text_ns_per_line"] = std::chrono::duration<double, std::nano>(parsed).count() / lines;
  state.counters["text_over_recorded"] = std::chrono::duration<double>(parsed) / std::chrono::duration<double>(recorded);
}
BENCHMARK(BM_ReadRecordedHistory)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
