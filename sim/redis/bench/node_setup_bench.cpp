// What a node costs before it serves anything: construction and destruction of a mock Node with its Lua
// sandbox (redis, cjson, cmsgpack, struct, bit and the 5.1 layer). Every simulated run builds one per node,
// so for the short runs `lockcheck explore` draws first this is a large share of a run.
//   ./build/sim/redis/bench/node_setup_bench
//   valgrind --tool=callgrind ./build/sim/redis/bench/node_setup_bench --benchmark_min_time=0.01   (instructions)
#include <benchmark/benchmark.h>

#include "redis/server/node.hpp"

namespace {

void BM_NodeConstruction(benchmark::State& state) {
  for (auto _ : state) {
    lockcheck::mock::Node node(lockcheck::mock::NodeOptions{.clock = [] { return std::int64_t{1'700'000'000'000}; }});
    benchmark::DoNotOptimize(&node);
  }
  state.counters["nodes_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_NodeConstruction);

}  // namespace

BENCHMARK_MAIN();
