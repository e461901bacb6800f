#include "scenario/write_scenario.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "lockcheck/variants/capabilities.hpp"
#include "lockcheck/variants/registry.hpp"

namespace lockcheck::sim {
namespace {

// Accumulates one table's lines; written only when it has any.
class Table {
 public:
  explicit Table(std::string header) : header_(std::move(header)) {}

  template <typename T>
  void put(std::string_view key, const T& value, const T& fallback) {
    if (value != fallback) lines_ += fmt::format("{} = {}\n", key, value);
  }
  void put_text(std::string_view key, const std::string& value, const std::string& fallback) {
    if (value != fallback) lines_ += fmt::format("{} = {}\n", key, quoted(value));
  }
  void put_bool(std::string_view key, bool value, bool fallback) {
    if (value != fallback) lines_ += fmt::format("{} = {}\n", key, value ? "true" : "false");
  }
  // A duration kept in µs, written in whole ms.
  void put_ms(std::string_view key, std::int64_t value_us, std::int64_t fallback_us) {
    if (value_us == fallback_us) return;
    if (value_us % 1000 != 0) {
      throw std::invalid_argument(fmt::format("{} {}: {} µs is no whole number of milliseconds", header_, key, value_us));
    }
    lines_ += fmt::format("{} = {}\n", key, value_us / 1000);
  }
  void always(std::string_view line) { lines_ += fmt::format("{}\n", line); }
  std::string text() const { return lines_.empty() ? "" : fmt::format("\n{}\n{}", header_, lines_); }
  const std::string& lines() const { return lines_; }

  static std::string quoted(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
      if (c == '"' || c == '\\') out += '\\';
      if (c == '\n') {
        out += "\\n";
        continue;
      }
      out += c;
    }
    return out + "\"";
  }

 private:
  std::string header_;
  std::string lines_;
};

const char* eviction_name(sim::EvictionPolicy policy) {
  switch (policy) {
    case sim::EvictionPolicy::noeviction: return "noeviction";
    case sim::EvictionPolicy::allkeys_random: return "allkeys-random";
    case sim::EvictionPolicy::allkeys_lru: return "allkeys-lru";
    case sim::EvictionPolicy::allkeys_lfu: return "allkeys-lfu";
    case sim::EvictionPolicy::volatile_lfu: return "volatile-lfu";
  }
  return "noeviction";
}

std::string top_level(const Scenario& scenario) {
  const RunConfig& config = scenario.config;
  const RunConfig defaults;
  Table top("");
  top.put_text("name", scenario.name, "");
  top.put_text("description", scenario.description, "");
  top.put_text("backend", scenario.backend, "mock");
  top.always(fmt::format("variant = {}", Table::quoted(config.variant)));
  top.put_text("reference", scenario.reference, "");
  top.always(fmt::format("duration_ms = {}", config.duration_us / 1000));
  if (config.duration_us % 1000 != 0) throw std::invalid_argument("duration is no whole number of milliseconds");
  if (scenario.seeds.size() == 1) {
    top.always(fmt::format("seed = {}", scenario.seeds.front()));
  } else {
    top.always(fmt::format("seed_list = [{}]", fmt::join(scenario.seeds, ", ")));
  }
  top.put_ms("command_timeout_ms", config.command_timeout_us, defaults.command_timeout_us);
  top.put_ms("active_expiry_interval_ms", config.active_expiry_interval_us, defaults.active_expiry_interval_us);
  top.put("max_events", config.max_events, defaults.max_events);
  return top.lines();
}

std::string lock_table(const RunConfig& config) {
  const RunConfig defaults;
  Table lock("[lock]");
  lock.put("ttl_ms", config.lock.ttl.count(), defaults.lock.ttl.count());
  lock.put("drift_ppm", config.lock.clock_drift_ppm, defaults.lock.clock_drift_ppm);
  lock.put("drift_floor_ms", config.lock.drift_floor.count(), defaults.lock.drift_floor.count());
  lock.put_ms("retry_delay_min_ms", config.lock.retry.delay_min.count(), defaults.lock.retry.delay_min.count());
  lock.put_ms("retry_delay_max_ms", config.lock.retry.delay_max.count(), defaults.lock.retry.delay_max.count());
  lock.put("unknown_outcome_attempts", config.lock.retry.unknown_outcome_attempts, defaults.lock.retry.unknown_outcome_attempts);
  lock.put("max_attempts", config.lock.retry.max_attempts, defaults.lock.retry.max_attempts);
  lock.put("idempotent_attempts", config.lock.retry.idempotent_attempts, defaults.lock.retry.idempotent_attempts);
  lock.put_bool("watchdog", config.renewal.watchdog, defaults.renewal.watchdog);
  // Renewal keys only where something renews: the reader refuses them elsewhere (they would do nothing).
  if (config.renewal.watchdog || renews_in_background(config.variant)) {
    lock.put("renew_divisor", config.renewal.renew_divisor, defaults.renewal.renew_divisor);
    lock.put("max_renewals", config.renewal.max_renewals, defaults.renewal.max_renewals);
    lock.put_ms("max_hold_ms", config.renewal.max_hold_us, defaults.renewal.max_hold_us);
  }
  return lock.text();
}

std::string clients_table(const RunConfig& config) {
  std::string text = fmt::format("\n[clients]\ncount = {}\n", config.clients.size());
  for (std::size_t i = 0; i < config.clients.size(); ++i) {
    const ClockConfig& clock = config.clients[i].clock;
    Table entry("[[clients.clock]]");
    entry.put_ms("offset_ms", clock.wall_offset_us, 0);
    entry.put("drift_ppm", clock.drift_ppm, std::int64_t{0});
    if (!entry.lines().empty()) text += fmt::format("\n[[clients.clock]]\nprocess = {}\n{}", i, entry.lines());
  }
  return text;
}

std::string nodes_tables(const RunConfig& config) {
  if (config.cluster.shards > 0 || config.sentinel.sentinels > 0) return "";  // the topology builds them
  const RunConfig defaults;
  if (config.nodes.size() == 1) {
    const NodeConfig& only = config.nodes.front();
    const NodeConfig fallback = defaults.nodes.front();
    if (only.clock.wall_offset_us == 0 && only.clock.drift_ppm == 0 && only.maxmemory_keys == 0 &&
        only.eviction == fallback.eviction) {
      return "";
    }
  }
  std::string text;
  const NodeConfig fallback;
  for (const NodeConfig& node : config.nodes) {
    Table entry("[[nodes]]");
    entry.put_ms("offset_ms", node.clock.wall_offset_us, 0);
    entry.put("drift_ppm", node.clock.drift_ppm, std::int64_t{0});
    entry.put("replica_of", node.replica_of, -1);
    entry.put_ms("lag_min_ms", node.replication_lag_min_us, fallback.replication_lag_min_us);
    entry.put_ms("lag_max_ms", node.replication_lag_max_us, fallback.replication_lag_max_us);
    entry.put("maxmemory_keys", node.maxmemory_keys, fallback.maxmemory_keys);
    if (node.eviction != fallback.eviction) entry.always(fmt::format("eviction = \"{}\"", eviction_name(node.eviction)));
    const std::string body = entry.text();
    text += body.empty() ? "\n[[nodes]]\n" : body;
  }
  return text;
}

std::string cluster_and_sentinel(const RunConfig& config) {
  std::string text;
  if (config.cluster.shards > 0) {
    const ClusterConfig fallback;
    Table cluster("[cluster]");
    cluster.always(fmt::format("shards = {}", config.cluster.shards));
    cluster.put("replicas_per_shard", config.cluster.replicas_per_shard, fallback.replicas_per_shard);
    cluster.put_ms("lag_min_ms", config.cluster.replication_lag_min_us, fallback.replication_lag_min_us);
    cluster.put_ms("lag_max_ms", config.cluster.replication_lag_max_us, fallback.replication_lag_max_us);
    cluster.put_ms("node_timeout_ms", config.cluster.node_timeout_us, fallback.node_timeout_us);
    text += cluster.text();
  }
  if (config.sentinel.sentinels > 0) {
    const SentinelConfig fallback;
    const SentinelConfig& given = config.sentinel;
    Table sentinel("[sentinel]");
    sentinel.always(fmt::format("sentinels = {}", given.sentinels));
    sentinel.put("quorum", given.quorum, fallback.quorum);
    sentinel.put("replicas", given.replicas, fallback.replicas);
    sentinel.put_text("master_name", given.master_name, fallback.master_name);
    sentinel.put_ms("lag_min_ms", given.replication_lag_min_us, fallback.replication_lag_min_us);
    sentinel.put_ms("lag_max_ms", given.replication_lag_max_us, fallback.replication_lag_max_us);
    sentinel.put_ms("down_after_ms", given.down_after_us, fallback.down_after_us);
    sentinel.put("min_replicas_to_write", given.min_replicas_to_write, fallback.min_replicas_to_write);
    sentinel.put_ms("min_replicas_max_lag_ms", given.min_replicas_max_lag_us, fallback.min_replicas_max_lag_us);
    sentinel.put("sentinels_on_master_side", given.sentinels_on_master_side, fallback.sentinels_on_master_side);
    sentinel.put_ms("failover_timeout_ms", given.failover_timeout_us, fallback.failover_timeout_us);
    sentinel.put("parallel_syncs", given.parallel_syncs, fallback.parallel_syncs);
    text += sentinel.text();
  }
  return text;
}

std::string network_table(const RunConfig& config) {
  const LinkConfig fallback;
  Table network("[network]");
  network.put("delay_min_us", config.link.delay_min_us, fallback.delay_min_us);
  network.put("delay_max_us", config.link.delay_max_us, fallback.delay_max_us);
  network.put("request_loss_ppm", config.link.request_loss_ppm, fallback.request_loss_ppm);
  network.put("reply_loss_ppm", config.link.reply_loss_ppm, fallback.reply_loss_ppm);
  std::string text = network.text();
  if (!config.link_overrides.empty() && text.empty()) text = "\n[network]\n";
  for (const LinkOverride& entry : config.link_overrides) {
    text += fmt::format("\n[[network.links]]\nprocess = {}\nnode = {}\ndelay_min_us = {}\ndelay_max_us = {}\n"
                        "request_loss_ppm = {}\nreply_loss_ppm = {}\n",
                        entry.process, entry.node, entry.link.delay_min_us, entry.link.delay_max_us,
                        entry.link.request_loss_ppm, entry.link.reply_loss_ppm);
  }
  return text;
}

std::string workload_table(const RunConfig& config) {
  const WorkloadConfig fallback;
  const WorkloadConfig& given = config.workload;
  Table workload("[workload]");
  workload.put_text("key", given.key, fallback.key);
  workload.put_ms("wait_ms", given.wait_us, fallback.wait_us);
  workload.put_ms("hold_min_ms", given.hold_min_us, fallback.hold_min_us);
  workload.put_ms("hold_max_ms", given.hold_max_us, fallback.hold_max_us);
  workload.put_ms("think_min_ms", given.think_min_us, fallback.think_min_us);
  workload.put_ms("think_max_ms", given.think_max_us, fallback.think_max_us);
  workload.put("max_acquires_per_client", given.max_acquires_per_client, fallback.max_acquires_per_client);
  if (given.fencing != fallback.fencing) workload.always(fmt::format("fencing = \"{}\"", to_string(given.fencing)));
  workload.put("nest_every", given.nest_every, fallback.nest_every);
  if (given.nest_every > 0) {  // without nesting they change nothing, and the reader refuses them
    workload.put_ms("nested_ttl_ms", given.nested_ttl_us, fallback.nested_ttl_us);
    workload.put_ms("nested_hold_min_ms", given.nested_hold_min_us, fallback.nested_hold_min_us);
    workload.put_ms("nested_hold_max_ms", given.nested_hold_max_us, fallback.nested_hold_max_us);
  }
  workload.put("readers_ppm", given.readers_ppm, fallback.readers_ppm);
  workload.put_bool("check_lease_before_write", given.check_lease_before_write, fallback.check_lease_before_write);
  workload.put("write_latency_min_us", given.write_latency_min_us, fallback.write_latency_min_us);
  workload.put("write_latency_max_us", given.write_latency_max_us, fallback.write_latency_max_us);
  workload.put("threads_per_process", given.threads_per_process, fallback.threads_per_process);
  workload.put("permits", given.permits, fallback.permits);
  workload.put("latch_count", given.latch_count, fallback.latch_count);
  return workload.text();
}

std::string variant_tables(const Scenario& scenario) {
  std::string text;
  if (!scenario.scripts.acquire.empty()) {
    Table scripts("[scripts]");
    scripts.put_text("acquire", scenario.scripts.acquire, "");
    scripts.put_text("release", scenario.scripts.release, "");
    // A renew.lua runs only under the watchdog (and is refused without it): a minimal run may have dropped it.
    if (scenario.config.renewal.watchdog) scripts.put_text("renew", scenario.scripts.renew, "");
    text += scripts.text();
  }
  if (variant_has(scenario.config.variant, &VariantRow::waits_for_replicas)) {
    const TokenWaitOptions fallback;
    Table wait("[token_wait]");
    wait.put("replicas", scenario.config.token_wait.replicas, fallback.replicas);
    wait.put("timeout_ms", scenario.config.token_wait.wait_timeout.count(), fallback.wait_timeout.count());
    text += wait.text();
  }
  return text;
}

std::string nemesis_table(const RunConfig& config) {
  const NemesisConfig fallback;
  const NemesisConfig& given = config.nemesis;
  // A compare family's streams have no spelling in a file; write the run's schedule (draw_nemesis_schedule) instead.
  if (!given.drawn.empty()) throw std::invalid_argument("a configuration with drawn fault streams (a compare family) has no scenario file");
  Table nemesis("[nemesis]");
  nemesis.put_ms("pause_every_ms", given.pause_every_us, fallback.pause_every_us);
  nemesis.put_ms("pause_min_ms", given.pause_min_us, fallback.pause_min_us);
  nemesis.put_ms("pause_max_ms", given.pause_max_us, fallback.pause_max_us);
  nemesis.put_ms("crash_every_ms", given.crash_every_us, fallback.crash_every_us);
  nemesis.put_ms("restart_after_ms", given.restart_after_us, fallback.restart_after_us);
  nemesis.put_ms("partition_every_ms", given.partition_every_us, fallback.partition_every_us);
  nemesis.put_ms("partition_min_ms", given.partition_min_us, fallback.partition_min_us);
  nemesis.put_ms("partition_max_ms", given.partition_max_us, fallback.partition_max_us);
  nemesis.put_ms("node_clock_jump_every_ms", given.node_clock_jump_every_us, fallback.node_clock_jump_every_us);
  nemesis.put_ms("node_clock_jump_max_ms", given.node_clock_jump_max_us, fallback.node_clock_jump_max_us);
  nemesis.put_ms("node_crash_every_ms", given.node_crash_every_us, fallback.node_crash_every_us);
  nemesis.put_ms("node_restart_after_ms", given.node_restart_after_us, fallback.node_restart_after_us);
  if (given.restart_mode != fallback.restart_mode) {
    nemesis.always(fmt::format("restart_mode = \"{}\"", to_string(given.restart_mode)));
  }
  return nemesis.text();
}

std::string faults_tables(const RunConfig& config) {
  std::string text;
  for (const FaultSpec& fault : config.faults) {
    for (const std::int64_t value : {fault.at_us, fault.duration_us, fault.delta_us}) {
      if (value % 1000 != 0) throw std::invalid_argument(fmt::format("fault '{}': no whole milliseconds", describe(fault)));
    }
    text += "\n" + to_toml(fault);
  }
  return text;
}

std::string expect_table(const Scenario& scenario) {
  // A file that gates no verdict on purpose says why (explore's corpus files): load_scenario wants [expect].
  if (scenario.expectations.empty() && !scenario.expects_none_because.empty()) {
    return fmt::format("\n[expect]\nnone = {}\n", Table::quoted(scenario.expects_none_because));
  }
  if (scenario.expectations.empty()) return "";
  std::string text = "\n[expect]\n";
  for (const Expectation& expectation : scenario.expectations) {
    text += fmt::format("{} = \"{}\"\n", expectation.property, to_string(expectation.expected));
    if (!expectation.because.empty()) text += fmt::format("starved_because = {}\n", Table::quoted(expectation.because));
  }
  return text;
}

}  // namespace

std::string write_scenario(const Scenario& scenario) {
  const RunConfig& config = scenario.config;
  return top_level(scenario) + lock_table(config) + clients_table(config) + nodes_tables(config) +
         cluster_and_sentinel(config) + network_table(config) + workload_table(config) + variant_tables(scenario) +
         nemesis_table(config) + faults_tables(config) + expect_table(scenario);
}

}  // namespace lockcheck::sim
