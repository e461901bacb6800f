#include "model/variant_config.hpp"

#include <string_view>

#include "lockcheck/variants/registry.hpp"

namespace lockcheck::sim {
namespace {

constexpr std::int64_t kMs = 1000;
constexpr std::int64_t kDurationMs = 8000;

// What a variant needs so that the comparison exercises it: its registry row's comparison workload
// (lib/lockcheck/variants/variant_table.cpp); an id without a row takes the defaults (only registered ids reach
// here: compare_plan.cpp and explore check them).
ComparisonWorkload workload_of(const std::string& variant) {
  const VariantRow* row = find_variant(variant);
  return row == nullptr ? ComparisonWorkload{} : row->comparison;
}

}  // namespace

RowVariant split_watchdog(const std::string& row) {
  static constexpr std::string_view kSuffix = "+watchdog";
  if (row.size() > kSuffix.size() && row.ends_with(kSuffix)) return {row.substr(0, row.size() - kSuffix.size()), true};
  return {row, false};
}

RunConfig variant_base_config(const std::string& row) {
  const auto [variant, watchdog] = split_watchdog(row);
  ComparisonWorkload wanted = workload_of(variant);
  if (watchdog) {
    // As the `watchdog` row: holds past the TTL, so that renewal matters.
    const ComparisonWorkload renewing = workload_of("watchdog");
    wanted.hold_min_ms = renewing.hold_min_ms;
    wanted.hold_max_ms = renewing.hold_max_ms;
    wanted.wait_ms = renewing.wait_ms;
  }
  RunConfig config;
  config.variant = variant;
  config.renewal.watchdog = watchdog;
  config.lock.ttl = Millis(kBaseTtlMs);
  config.duration_us = kDurationMs * kMs;
  config.clients = std::vector<ClientConfig>(3);
  config.nodes = std::vector<NodeConfig>(static_cast<std::size_t>(wanted.masters));
  for (int r = 0; r < wanted.replicas; ++r) {
    NodeConfig replica;
    replica.replica_of = 0;
    config.nodes.push_back(replica);
  }
  config.workload.hold_min_us = wanted.hold_min_ms * kMs;
  config.workload.hold_max_us = wanted.hold_max_ms * kMs;
  config.workload.wait_us = wanted.wait_ms * kMs;
  config.workload.nest_every = wanted.nest_every;
  config.workload.readers_ppm = wanted.readers_ppm;
  config.workload.permits = wanted.permits;
  config.workload.latch_count = wanted.latch_count;
  config.workload.fencing = wanted.fencing_on_writes ? Fencing::writes : Fencing::off;
  return config;
}

bool variant_needs_user_scripts(const std::string& variant) {
  const VariantRow* row = find_variant(split_watchdog(variant).id);
  return row != nullptr && row->user_scripts;
}

}  // namespace lockcheck::sim
