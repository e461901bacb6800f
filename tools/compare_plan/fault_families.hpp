#pragma once
// What `lockcheck compare` runs: the fault families (columns of the matrix) and the per-variant base
// configuration (rows) each family is applied to. The families are data in fault_families.cpp; the variants,
// and what each needs to be exercised, are the registry's rows (lib/lockcheck/variants/variant_table.cpp), so
// new variants appear without touching this.
#include <functional>
#include <string>
#include <vector>

#include "model/run_config.hpp"

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

// A comparison row "<id>+watchdog" is the variant `id` wrapped in a watchdog (a scenario file's
// [lock] watchdog = true): split_watchdog("script+watchdog") is {"script", true}, of "token" {"token", false}.
struct RowVariant {
  std::string id;
  bool watchdog = false;
};
RowVariant split_watchdog(const std::string& row);

// The fault-free configuration of one variant (or "<id>+watchdog" row): the same workload for all, plus what a
// variant needs to be exercised at all (Redlock five masters, reentrant variants nested acquires, read-write
// variants readers, renewing ones holds past the TTL).
sim::RunConfig variant_base_config(const std::string& variant);

// Variants compare skips unless the user supplies something (the `script` variant, also as
// "script+watchdog", needs the user's scripts).
bool variant_needs_user_scripts(const std::string& variant);

}  // namespace lockcheck::compare
