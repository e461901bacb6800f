// What a node costs before it serves anything: construction and destruction of a mock Node, without and with
// its Lua sandbox (redis, cjson, cmsgpack, struct, bit and the 5.1 layer). Every simulated run builds one per
// node; the sandbox is made on the first command that needs Lua, so a node that never runs a script (a
// replica, a variant without scripts) costs BM_NodeConstruction and one that does BM_NodeConstructionWithLua
// (a copy of its region's template); BM_TemplateOverSetup sets that copy against a setup from scratch.
// For the short runs `lockcheck explore` draws first this is a large share of a run.
//   ./build/sim/redis/bench/node_setup_bench
//   valgrind --tool=callgrind ./build/sim/redis/bench/node_setup_bench --benchmark_min_time=0.01   (instructions)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <ctime>

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

// The same node, then its Lua state made as the first EVAL would: the share lazy creation saves. Its state is
// copied from the region's template (lua_region.hpp) after the first iteration.
void BM_NodeConstructionWithLua(benchmark::State& state) {
  for (auto _ : state) {
    lockcheck::mock::Node node(options());
    node.lua().start();
    benchmark::DoNotOptimize(&node);
  }
  state.counters["nodes_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_NodeConstructionWithLua);

// A node's Lua state from its region's template against one set up and closed from scratch (a script memory
// limit under 16 MiB, which regions do not serve), alternately in the same run: over_setup is how many nodes
// with Lua the template makes per CPU-second for one the setup makes (each pair runs one of each, so the load
// falls on both).
void BM_TemplateOverSetup(benchmark::State& state) {
  lockcheck::mock::NodeOptions from_scratch = options();
  from_scratch.script_memory_limit_bytes = 8u << 20;
  std::clock_t template_ticks = 0, setup_ticks = 0;
  for (auto _ : state) {
    std::clock_t start = std::clock();
    {
      lockcheck::mock::Node node(options());
      node.lua().start();
      benchmark::DoNotOptimize(&node);
    }
    template_ticks += std::clock() - start;
    start = std::clock();
    {
      lockcheck::mock::Node node(from_scratch);
      node.lua().start();
      benchmark::DoNotOptimize(&node);
    }
    setup_ticks += std::clock() - start;
  }
  state.counters["over_setup"] = static_cast<double>(setup_ticks) / static_cast<double>(std::max<std::clock_t>(template_ticks, 1));
}
BENCHMARK(BM_TemplateOverSetup);

}  // namespace

BENCHMARK_MAIN();
