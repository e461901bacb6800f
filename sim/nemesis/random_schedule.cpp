// The random nemesis of a scenario file ([nemesis]), drawn up front into a fixed schedule: each fault family has
// its own sub-seed, so turning one family on or off leaves the others' times unchanged, and a failing schedule
// can be shrunk. What each fault is comes from the one generator (fault_space.hpp) with the file's ranges.
#include <algorithm>

#include "model/prng.hpp"
#include "model/run_config.hpp"
#include "nemesis/fault_space.hpp"

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
  const FaultRanges ranges = nemesis_ranges(nemesis);
  std::vector<FaultSpec> out;
  const std::int64_t end = config.duration_us;
  // Each family: its kind drawn by the one generator (fault_space.hpp) at the family's own times.
  const auto family = [&](const char* name, std::int64_t every_us, FaultKind kind) {
    draw_family(seed, name, every_us, end, [&](Prng& prng, std::int64_t t) { draw_fault_at(kind, t, config, ranges, prng, out); });
  };
  family("nemesis/pause", nemesis.pause_every_us, FaultKind::pause);
  family("nemesis/crash", nemesis.crash_every_us, FaultKind::crash);
  family("nemesis/partition", nemesis.partition_every_us, FaultKind::partition);
  family("nemesis/node_clock_jump", nemesis.node_clock_jump_every_us, FaultKind::node_clock_jump);
  family("nemesis/node_crash", nemesis.node_crash_every_us, FaultKind::node_crash);
  std::stable_sort(out.begin(), out.end(), [](const FaultSpec& a, const FaultSpec& b) { return a.at_us < b.at_us; });
  return out;
}

}  // namespace lockcheck::sim
