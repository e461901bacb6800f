#include "core/run_meta.hpp"

namespace lockcheck::sim {

Json run_meta(const SimConfig& config, std::uint64_t seed) {
  Json meta{{"schema", 1}, {"scenario", config.scenario}, {"seed", seed}, {"variant", config.variant}};
  if (config.renewal.watchdog) meta["watchdog"] = true;
  meta["ttl_ms"] = config.lock.ttl.count();
  meta["clients"] = config.clients.size();
  meta["nodes"] = config.nodes.size();
  meta["fencing"] = config.workload.fencing != Fencing::off;
  if (config.workload.fencing != Fencing::off) meta["fencing_mode"] = to_string(config.workload.fencing);
  meta["end"] = config.duration_us;
  return meta;
}

std::string variant_label(const SimConfig& config) {
  return config.renewal.watchdog ? config.variant + "+watchdog" : config.variant;
}

}  // namespace lockcheck::sim
