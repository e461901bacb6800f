#pragma once
// What `lockcheck compare` runs: the fault families (columns of the matrix) and the per-variant base
// configuration (rows) each family is applied to. A family is a named, seeded subset of the one fault generator
// (sim/nemesis/fault_space.hpp): the topology it needs, and the kinds it draws, each at a rate or at fixed times,
// within ranges narrow enough that its description stays true. The families are data in fault_families.cpp; the
// variants, and what each needs to be exercised, are the registry's rows (lib/lockcheck/variants/variant_table.cpp),
// so new variants appear without touching this.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/fault_ranges.hpp"
#include "model/run_config.hpp"
#include "model/variant_config.hpp"

namespace lockcheck::compare {

// The nodes a family's draws pick from, named before the topology gives them numbers.
enum class FamilyNodes : std::uint8_t {
  any,            // every node the kind can take (the generator's own choice)
  lock_master,    // the master serving the lock: node 0, or on a [cluster] the master of the lock's slot
  first_replica,   // the first of the two replicas the failover family adds to master 0; on a [cluster], the
                   // replica of the lock's shard
  second_replica,  // the second of those two
  other_masters,  // on a [cluster], the masters of the other shards
};

// One kind a family draws: a stream of the generator (sim::DrawnFaults) before the topology is known.
struct FamilyDraw {
  sim::FaultKind kind;
  std::int64_t every_ms = 0;        // mean gap between draws, gaps uniform in [every/2, 3*every/2] ...
  std::optional<std::int64_t> jitter_ms = std::nullopt;  // ... or in [every - jitter, every + jitter] ...
  int max_count = 0;                // ... at most this many (0: no cap)
  std::vector<std::int64_t> at_ms = {};  // or fixed times, with every_ms = 0
  sim::FaultRanges ranges = {};     // unit 1 ms: ranges in microseconds
  FamilyNodes nodes = FamilyNodes::any;
  // Its sub-seed's name; empty: "<family id>/<kind>" ("#2", ... for a family's second draw of a kind).
  std::string seed_name = {};
};

struct FaultFamily {
  std::string id;           // column id, e.g. "pause"; used in --faults, anchors and results.json
  std::string title;        // column header, e.g. "pause past TTL"
  std::string description;  // one sentence: what is drawn, with its numbers
  std::function<void(sim::RunConfig&)> setup;  // the topology it needs and settings that are no fault
  std::vector<FamilyDraw> draws;

  // Sets the family's topology up in a variant's base configuration and adds its draws as streams
  // (NemesisConfig::drawn), which each run draws from its own seed (sim::draw_nemesis_schedule).
  void apply(sim::RunConfig& config) const;
};

// Every family, baseline first, in column order.
const std::vector<FaultFamily>& fault_families();

// Throws std::invalid_argument naming the known ids when `id` is unknown.
const FaultFamily& fault_family(const std::string& id);

}  // namespace lockcheck::compare
