#include "model/meta_line.hpp"

#include <algorithm>

#include "lockcheck/sha1.hpp"
#include "lockcheck/variants/registry.hpp"

namespace lockcheck::sim {

LockShape lock_shape_of(const RunConfig& config) {
  // A cluster is one node to the lock (its ClusterPort routes by slot), however many masters it has.
  const auto masters = config.cluster.shards > 0 ? std::size_t{1} : static_cast<std::size_t>(std::count_if(
      config.nodes.begin(), config.nodes.end(), [](const NodeConfig& node) { return node.replica_of < 0; }));
  if (!config.external.command.empty()) {
    // An external client: the keys its library writes, as one exclusive lock; a quorum where it has masters.
    LockShape shape;
    for (const std::string& key : config.external.keys) {
      if (key != config.workload.key) shape.derived_keys.push_back({key, false});
    }
    if (masters > 1) shape.quorum = masters / 2 + 1;
    return shape;
  }
  return lock_shape(config.variant, config.workload.key, masters);
}

Json history_meta(const RunConfig& config, std::uint64_t seed) {
  Json meta{{"schema", 1}, {"scenario", config.scenario}, {"seed", seed},
            {"variant", config.external.command.empty() ? config.variant : variant_label(config)}};
  if (config.renewal.watchdog) meta["watchdog"] = true;
  meta["ttl_ms"] = config.lock.ttl.count();
  meta["clients"] = config.clients.size();
  meta["nodes"] = config.nodes.size();
  meta["fencing"] = config.workload.fencing != Fencing::off;  // checkers read a boolean
  if (config.workload.fencing != Fencing::off) meta["fencing_mode"] = to_string(config.workload.fencing);
  meta["end"] = config.duration_us;
  // The longest a replica takes to apply a master's write: a failover loses only writes that recent (or made
  // while the promoted replica's link was cut), which the checkers then hold in doubt.
  std::int64_t replication_lag_max_us = -1;
  for (const NodeConfig& node : config.nodes) {
    if (node.replica_of >= 0) replication_lag_max_us = std::max(replication_lag_max_us, node.replication_lag_max_us);
  }
  if (replication_lag_max_us >= 0) meta["replication_lag_max_us"] = replication_lag_max_us;
  // A semaphore's size: its histories are judged by permit_safety, not by mutual exclusion.
  if (config.external.command.empty()) {
    if (const VariantRow* row = find_variant(config.variant); row != nullptr && row->counts_permits) {
      meta["permits"] = config.workload.permits;
    }
    // A latch's count: its histories are judged by the latch property, not by any lock property.
    if (const VariantRow* row = find_variant(config.variant); row != nullptr && row->counts_down) {
      meta["latch"] = config.workload.latch_count;
    }
    // A fair lock: its histories are judged by fairness too (waiters granted in arrival order).
    if (const VariantRow* row = find_variant(config.variant); row != nullptr && row->grants_in_order) {
      meta["fair"] = true;
      // Links that drop messages all run long write no fault line, yet cost a waiter its polls (its first one, its
      // place in line): fairness must know (properties/fair_waits.hpp).
      const auto lossy = [](const LinkConfig& link) { return link.request_loss_ppm > 0 || link.reply_loss_ppm > 0; };
      if (lossy(config.link) || std::any_of(config.link_overrides.begin(), config.link_overrides.end(),
                                            [&](const LinkOverride& path) { return lossy(path.link); })) {
        meta["lossy_links"] = true;
      }
    }
  }
  const LockShape shape = lock_shape_of(config);
  // On a cluster Redlock has one node (the ClusterPort): a quorum of one is judged as a single-node lock, since
  // a slot migration moves its instance between nodes, which per-node quorum accounting would take for two holds.
  if (shape.quorum > 0 && config.cluster.shards == 0) meta["quorum"] = shape.quorum;
  if (!shape.derived_keys.empty()) {
    Json keys = Json::array();
    for (const LockShape::DerivedKey& derived : shape.derived_keys) {
      keys.push_back(Json{{"key", derived.key}, {"lock", config.workload.key}, {"mode", derived.shared ? "read" : "write"}});
    }
    meta["lock_keys"] = std::move(keys);
  }
  // The user's scripts by SHA1, so witnesses name the file a server line's "script" ran. renew.lua runs only
  // under the watchdog; without it the run is the same as with no renew.lua given, and so is this line.
  if (variant_has(config.variant, &VariantRow::user_scripts)) {
    Json files = Json::object();
    const UserScripts& scripts = config.scripts;
    const std::string no_renew;
    for (const auto& [source, name] :
         {std::pair{&scripts.acquire, &scripts.acquire_name}, std::pair{&scripts.release, &scripts.release_name},
          std::pair{config.renewal.watchdog ? &scripts.renew : &no_renew, &scripts.renew_name}}) {
      if (!source->empty()) files[remembered_sha1_hex(*source)] = *name;
    }
    meta["script_files"] = std::move(files);
  }
  return meta;
}

std::string variant_label(const RunConfig& config) {
  if (!config.external.command.empty()) {
    // "client python3 redis_py_lock.py": the program and its arguments, paths by their file names.
    std::string label = "client";
    for (const std::string& word : config.external.command) label += " " + word.substr(word.find_last_of('/') + 1);
    return label;
  }
  return config.renewal.watchdog ? config.variant + "+watchdog" : config.variant;
}

}  // namespace lockcheck::sim
