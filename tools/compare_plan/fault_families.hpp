#pragma once
// What `lockcheck compare` runs: the fault families (columns of the matrix) and the per-variant base
// configuration (rows) each family is applied to. The families are data in fault_families.cpp; the variants,
// and what each needs to be exercised, are the registry's rows (lib/lockcheck/variants/variant_table.cpp), so
// new variants appear without touching this.
#include <functional>
#include <string>
#include <vector>

#include "model/run_config.hpp"
#include "model/variant_config.hpp"

namespace lockcheck::compare {

struct FaultFamily {
  std::string id;           // column id, e.g. "pause"; used in --faults, anchors and results.json
  std::string title;        // column header, e.g. "pause past TTL"
  std::string description;  // one sentence: what is injected, with its numbers
  std::function<void(sim::RunConfig&)> apply;  // adds the faults to a variant's base configuration
};

// Every family, baseline first, in column order.
const std::vector<FaultFamily>& fault_families();

// Throws std::invalid_argument naming the known ids when `id` is unknown.
const FaultFamily& fault_family(const std::string& id);

}  // namespace lockcheck::compare
