// The random nemesis, drawn up front into a fixed schedule: each fault family has its own sub-seed, so
// turning one family on or off leaves the others' times unchanged, and a failing schedule can be shrunk.
#include <algorithm>

#include "model/run_config.hpp"
#include "model/prng.hpp"

namespace lockcheck::sim {
namespace {

// Event times of one family: gaps drawn uniformly in [every/2, 3*every/2] (mean `every`), integer only.
template <typename MakeFault>
void draw_family(std::uint64_t seed, const char* name, std::int64_t every_us,
                 std::int64_t end_us, MakeFault make) {
  if (every_us <= 0) return;
  Prng prng(derive_seed(seed, name));
  std::int64_t t = 0;
  for (int count = 0; count < 100000; ++count) {
    t += prng.between(every_us / 2, every_us + every_us / 2);
    if (t >= end_us) break;
    make(prng, t);
  }
}

}  // namespace

std::vector<FaultSpec> draw_nemesis_schedule(const RunConfig& config, std::uint64_t seed) {
  const NemesisConfig& nemesis = config.nemesis;
  std::vector<FaultSpec> out;
  const auto clients = static_cast<std::int64_t>(config.clients.size());
  const auto masters = master_nodes(config);
  const std::int64_t end = config.duration_us;

  draw_family(seed, "nemesis/pause", nemesis.pause_every_us, end, [&](Prng& prng, std::int64_t t) {
    FaultSpec fault{.at_us = t, .kind = FaultKind::pause};
    fault.process = static_cast<int>(prng.below(static_cast<std::uint64_t>(clients)));
    fault.duration_us = prng.between(nemesis.pause_min_us, nemesis.pause_max_us);
    out.push_back(fault);
  });
  draw_family(seed, "nemesis/crash", nemesis.crash_every_us, end, [&](Prng& prng, std::int64_t t) {
    FaultSpec crash{.at_us = t, .kind = FaultKind::crash};
    crash.process = static_cast<int>(prng.below(static_cast<std::uint64_t>(clients)));
    FaultSpec restart = crash;
    restart.kind = FaultKind::restart;
    restart.at_us = t + nemesis.restart_after_us;
    out.push_back(crash);
    out.push_back(restart);
  });
  draw_family(seed, "nemesis/partition", nemesis.partition_every_us, end, [&](Prng& prng, std::int64_t t) {
    FaultSpec cut{.at_us = t, .kind = FaultKind::partition};
    cut.process = static_cast<int>(prng.below(static_cast<std::uint64_t>(clients)));
    cut.node = masters[prng.below(masters.size())];
    FaultSpec heal{.at_us = t + prng.between(nemesis.partition_min_us, nemesis.partition_max_us), .kind = FaultKind::heal};
    out.push_back(cut);
    out.push_back(heal);
  });
  draw_family(seed, "nemesis/node_clock_jump", nemesis.node_clock_jump_every_us, end, [&](Prng& prng, std::int64_t t) {
    FaultSpec jump{.at_us = t, .kind = FaultKind::node_clock_jump};
    jump.node = static_cast<int>(prng.below(config.nodes.size()));
    jump.delta_us = prng.between(-nemesis.node_clock_jump_max_us, nemesis.node_clock_jump_max_us);
    out.push_back(jump);
  });
  draw_family(seed, "nemesis/node_crash", nemesis.node_crash_every_us, end, [&](Prng& prng, std::int64_t t) {
    FaultSpec crash{.at_us = t, .kind = FaultKind::node_crash};
    crash.node = static_cast<int>(prng.below(config.nodes.size()));
    FaultSpec restart = crash;
    restart.kind = FaultKind::node_restart;
    restart.at_us = t + nemesis.node_restart_after_us;
    restart.mode = nemesis.restart_mode;
    out.push_back(crash);
    out.push_back(restart);
  });
  std::stable_sort(out.begin(), out.end(), [](const FaultSpec& a, const FaultSpec& b) { return a.at_us < b.at_us; });
  return out;
}

}  // namespace lockcheck::sim
