// The random nemesis, drawn up front into a fixed schedule: the scenario file's [nemesis] and compare's fault
// families are streams (model/fault_ranges.hpp DrawnFaults), each with its own sub-seed, so turning one on or off
// leaves the others' times unchanged, and a failing schedule can be shrunk. What each fault is comes from the one
// generator (fault_space.hpp) with the stream's ranges.
#include <algorithm>

#include "model/prng.hpp"
#include "model/run_config.hpp"
#include "nemesis/fault_space.hpp"

namespace lockcheck::sim {
namespace {

// One stream's faults. Drawn times: gaps uniform in [every - jitter, every + jitter], integer only; the
// [nemesis] kinds' jitter is every/2 (gaps in [every/2, 3*every/2]).
void draw_stream(const DrawnFaults& stream, const RunConfig& config, std::uint64_t seed, std::vector<FaultSpec>& out) {
  Prng prng(derive_seed(seed, stream.name));
  const std::int64_t end_us = config.duration_us;
  if (stream.every_us <= 0) {
    for (const std::int64_t at_us : stream.at_us) {
      if (at_us < end_us) draw_fault_at(stream.kind, at_us, config, stream.ranges, prng, out);
    }
    return;
  }
  const std::int64_t every_us = stream.every_us;
  // Without a jitter, [every/2, every + every/2] as the [nemesis] always drew (every/2 rounds down: kept so).
  const std::int64_t jitter_us = std::clamp<std::int64_t>(stream.jitter_us.value_or(0), 0, every_us - 1);
  const std::int64_t low_us = stream.jitter_us ? every_us - jitter_us : every_us / 2;
  const std::int64_t high_us = stream.jitter_us ? every_us + jitter_us : every_us + every_us / 2;
  const int max_count = stream.max_count > 0 ? stream.max_count : 100000;
  std::int64_t t = 0;
  for (int count = 0; count < max_count; ++count) {
    t += prng.between(low_us, high_us);
    if (t >= end_us) break;
    draw_fault_at(stream.kind, t, config, stream.ranges, prng, out);
  }
}

}  // namespace

std::vector<DrawnFaults> nemesis_streams(const NemesisConfig& nemesis) {
  const FaultRanges ranges = nemesis_ranges(nemesis);
  std::vector<DrawnFaults> streams;
  const auto stream = [&](const char* name, std::int64_t every_us, FaultKind kind) {
    if (every_us > 0) streams.push_back(DrawnFaults{.name = name, .kind = kind, .every_us = every_us, .ranges = ranges});
  };
  stream("nemesis/pause", nemesis.pause_every_us, FaultKind::pause);
  stream("nemesis/crash", nemesis.crash_every_us, FaultKind::crash);
  stream("nemesis/partition", nemesis.partition_every_us, FaultKind::partition);
  stream("nemesis/node_clock_jump", nemesis.node_clock_jump_every_us, FaultKind::node_clock_jump);
  stream("nemesis/node_crash", nemesis.node_crash_every_us, FaultKind::node_crash);
  return streams;
}

std::vector<FaultSpec> draw_streams(const std::vector<DrawnFaults>& streams, const RunConfig& config, std::uint64_t seed) {
  std::vector<FaultSpec> out;
  for (const DrawnFaults& stream : streams) draw_stream(stream, config, seed, out);
  std::stable_sort(out.begin(), out.end(), [](const FaultSpec& a, const FaultSpec& b) { return a.at_us < b.at_us; });
  return out;
}

std::vector<FaultSpec> draw_nemesis_schedule(const RunConfig& config, std::uint64_t seed) {
  std::vector<DrawnFaults> streams = nemesis_streams(config.nemesis);
  streams.insert(streams.end(), config.nemesis.drawn.begin(), config.nemesis.drawn.end());
  return draw_streams(streams, config, seed);
}

}  // namespace lockcheck::sim
