#include "worker_config.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace lockcheck::redis_backend {

namespace {

// Per client process, its slowest own link's delay: an external client's reply bound grows with it.
std::vector<std::int64_t> own_link_delays_us(const sim::RunConfig& config) {
  std::vector<std::int64_t> out;
  int processes = static_cast<int>(config.clients.size());
  for (const sim::LinkOverride& entry : config.link_overrides) processes = std::max(processes, entry.process + 1);
  for (int process = 0; process < processes; ++process) {
    out.push_back(sim::slowest_own_link_delay_us(config, process));
  }
  return out;
}

}  // namespace

void write_worker_config(const sim::RunConfig& config, const std::string& path, const std::vector<std::string>& cluster_addresses,
                         const std::vector<int>& other_named_ports) {
  const LockOptions& lock = config.lock;
  const sim::WorkloadConfig& w = config.workload;
  const nlohmann::json out{
      {"variant", config.variant},
      {"scripts", {{"acquire", config.scripts.acquire}, {"release", config.scripts.release}, {"renew", config.scripts.renew},
                   {"acquire_name", config.scripts.acquire_name}, {"release_name", config.scripts.release_name},
                   {"renew_name", config.scripts.renew_name}}},
      {"command_timeout_us", config.command_timeout_us},
      {"link_delays_us", own_link_delays_us(config)},
      {"external", {{"command", config.external.command}, {"keys", config.external.keys}}},
      {"lock",
       {{"ttl_ms", lock.ttl.count()}, {"clock_drift_ppm", lock.clock_drift_ppm}, {"drift_floor_ms", lock.drift_floor.count()},
        {"retry_delay_min_us", lock.retry.delay_min.count()}, {"retry_delay_max_us", lock.retry.delay_max.count()},
        {"max_attempts", lock.retry.max_attempts}, {"unknown_outcome_attempts", lock.retry.unknown_outcome_attempts},
        {"idempotent_attempts", lock.retry.idempotent_attempts}}},
      {"renewal",
       {{"watchdog", config.renewal.watchdog}, {"renew_divisor", config.renewal.renew_divisor},
        {"max_renewals", config.renewal.max_renewals},
        {"max_hold_us", config.renewal.max_hold_us}}},
      {"token_wait",
       {{"replicas", config.token_wait.replicas}, {"wait_timeout_ms", config.token_wait.wait_timeout.count()}}},
      {"workload",
       {{"key", w.key}, {"wait_us", w.wait_us}, {"hold_min_us", w.hold_min_us}, {"hold_max_us", w.hold_max_us},
        {"think_min_us", w.think_min_us}, {"think_max_us", w.think_max_us}, {"max_acquires_per_client", w.max_acquires_per_client},
        {"fencing", sim::to_string(w.fencing)}, {"nest_every", w.nest_every}, {"nested_ttl_us", w.nested_ttl_us},
        {"nested_hold_min_us", w.nested_hold_min_us}, {"nested_hold_max_us", w.nested_hold_max_us}, {"readers_ppm", w.readers_ppm},
        {"check_lease_before_write", w.check_lease_before_write}, {"write_latency_min_us", w.write_latency_min_us},
        {"write_latency_max_us", w.write_latency_max_us}, {"threads_per_process", w.threads_per_process},
        {"permits", w.permits}, {"latch_count", w.latch_count}}},
      {"sentinel", {{"sentinels", config.sentinel.sentinels}, {"master_name", config.sentinel.master_name}}},
      {"cluster_addresses", cluster_addresses},
      {"other_named_ports", other_named_ports}};
  std::ofstream file(path);
  file << out.dump();
  if (!file) throw std::runtime_error("cannot write " + path);
}

sim::RunConfig read_worker_config(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot read " + path);
  const nlohmann::json in = nlohmann::json::parse(file);
  sim::RunConfig config;
  config.variant = in.at("variant").get<std::string>();
  const auto& scripts = in.at("scripts");
  config.scripts = UserScripts{scripts.at("acquire").get<std::string>(), scripts.at("release").get<std::string>(),
                               scripts.at("renew").get<std::string>()};
  // The file names the user gave, so a worker's script errors say "renew.lua:3" as the simulator's do.
  config.scripts.acquire_name = scripts.at("acquire_name").get<std::string>();
  config.scripts.release_name = scripts.at("release_name").get<std::string>();
  config.scripts.renew_name = scripts.at("renew_name").get<std::string>();
  config.command_timeout_us = in.at("command_timeout_us").get<std::int64_t>();
  // The links themselves stay with the run (its proxies): a worker needs only their delay, as overrides of its own.
  const auto delays = in.at("link_delays_us").get<std::vector<std::int64_t>>();
  for (std::size_t process = 0; process < delays.size(); ++process) {
    if (delays[process] == 0) continue;
    sim::LinkOverride own;
    own.process = static_cast<int>(process);
    own.link.delay_min_us = own.link.delay_max_us = delays[process];
    config.link_overrides.push_back(own);
  }
  config.external.command = in.at("external").at("command").get<std::vector<std::string>>();
  config.external.keys = in.at("external").at("keys").get<std::vector<std::string>>();
  const auto& lock = in.at("lock");
  config.lock.ttl = Millis(lock.at("ttl_ms").get<std::int64_t>());
  config.lock.clock_drift_ppm = lock.at("clock_drift_ppm").get<std::uint32_t>();
  config.lock.drift_floor = Millis(lock.at("drift_floor_ms").get<std::int64_t>());
  config.lock.retry.delay_min = Micros(lock.at("retry_delay_min_us").get<std::int64_t>());
  config.lock.retry.delay_max = Micros(lock.at("retry_delay_max_us").get<std::int64_t>());
  config.lock.retry.max_attempts = lock.at("max_attempts").get<std::uint32_t>();
  config.lock.retry.unknown_outcome_attempts = lock.at("unknown_outcome_attempts").get<std::uint32_t>();
  config.lock.retry.idempotent_attempts = lock.at("idempotent_attempts").get<std::uint32_t>();
  const auto& renewal = in.at("renewal");
  config.renewal.watchdog = renewal.at("watchdog").get<bool>();
  config.renewal.renew_divisor = renewal.at("renew_divisor").get<std::uint32_t>();
  config.renewal.max_renewals = renewal.at("max_renewals").get<std::uint32_t>();
  config.renewal.max_hold_us = renewal.at("max_hold_us").get<std::int64_t>();
  const auto& token_wait = in.at("token_wait");
  config.token_wait.replicas = token_wait.at("replicas").get<std::int64_t>();
  config.token_wait.wait_timeout = Millis(token_wait.at("wait_timeout_ms").get<std::int64_t>());
  const auto& w = in.at("workload");
  sim::WorkloadConfig& out = config.workload;
  out.key = w.at("key").get<std::string>();
  out.wait_us = w.at("wait_us").get<std::int64_t>();
  out.hold_min_us = w.at("hold_min_us").get<std::int64_t>();
  out.hold_max_us = w.at("hold_max_us").get<std::int64_t>();
  out.think_min_us = w.at("think_min_us").get<std::int64_t>();
  out.think_max_us = w.at("think_max_us").get<std::int64_t>();
  out.max_acquires_per_client = w.at("max_acquires_per_client").get<std::uint32_t>();
  const std::string fencing = w.at("fencing").get<std::string>();
  if (fencing == "reads-and-writes") {
    out.fencing = sim::Fencing::reads_and_writes;
  } else if (fencing == "writes") {
    out.fencing = sim::Fencing::writes;
  } else if (fencing == "off") {
    out.fencing = sim::Fencing::off;
  } else {
    throw std::runtime_error("unknown fencing mode '" + fencing + "' in " + path);
  }
  out.nest_every = w.at("nest_every").get<std::uint32_t>();
  out.nested_ttl_us = w.at("nested_ttl_us").get<std::int64_t>();
  out.nested_hold_min_us = w.at("nested_hold_min_us").get<std::int64_t>();
  out.nested_hold_max_us = w.at("nested_hold_max_us").get<std::int64_t>();
  out.readers_ppm = w.at("readers_ppm").get<std::uint32_t>();
  out.check_lease_before_write = w.at("check_lease_before_write").get<bool>();
  out.write_latency_min_us = w.at("write_latency_min_us").get<std::int64_t>();
  out.write_latency_max_us = w.at("write_latency_max_us").get<std::int64_t>();
  out.threads_per_process = w.value("threads_per_process", std::uint32_t{1});
  out.permits = w.value("permits", std::uint32_t{1});
  out.latch_count = w.value("latch_count", std::uint32_t{2});
  const auto& sentinel = in.at("sentinel");
  config.sentinel.sentinels = sentinel.at("sentinels").get<int>();
  config.sentinel.master_name = sentinel.at("master_name").get<std::string>();
  return config;
}

std::vector<std::string> read_cluster_addresses(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot read " + path);
  return nlohmann::json::parse(file).at("cluster_addresses").get<std::vector<std::string>>();
}

std::vector<int> read_other_named_ports(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot read " + path);
  return nlohmann::json::parse(file).at("other_named_ports").get<std::vector<int>>();
}

}  // namespace lockcheck::redis_backend
