// What a node costs before it serves anything: construction and destruction of a mock Node, without and with
// its Lua sandbox (redis, cjson, cmsgpack, struct, bit and the 5.1 layer). Every simulated run builds one per
// node; the sandbox is made on the first command that needs Lua, so a node that never runs a script (a
// replica, a variant without scripts) costs BM_NodeConstruction and one that does BM_NodeConstructionWithLua.
// For the short runs `lockcheck explore` draws first this is a large share of a run.
//   ./build/sim/redis/bench/node_setup_bench
//   valgrind --tool=callgrind ./build/sim/redis/bench/node_setup_bench --benchmark_min_time=0.01   (instructions)
#include <benchmark/benchmark.h>

#include "redis/scripting/lua_engine.hpp"
#include "redis/server/node.hpp"

namespace {

lockcheck::mock::NodeOptions options() {
  return lockcheck::mock::NodeOptions{.clock = [] { return std::int64_t{1'700'000'000'000}; }};
}

void BM_NodeConstruction(benchmark::State& state) {
  for (auto _ : state) {
    lockcheck::mock::Node node(options());
    benchmark::DoNotOptimize(&node);
  }
  state.counters["nodes_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_NodeConstruction);

// The same node, then its Lua state made as the first EVAL would: the share lazy creation saves.
void BM_NodeConstructionWithLua(benchmark::State& state) {
  for (auto _ : state) {
    lockcheck::mock::Node node(options());
    node.lua().start();
    benchmark::DoNotOptimize(&node);
  }
  state.counters["nodes_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_NodeConstructionWithLua);

}  // namespace

BENCHMARK_MAIN();
