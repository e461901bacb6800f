// lockcheck_redis_worker: one client process of a redis-backend run. It runs the library's real lock
// variant over HiredisPort (through RoutingPort) under the one workload every kind of client runs
// (sim/workload/workload.hpp), driven to completion with run_sync since these seams complete synchronously,
// and appends the history to its output file (worker_recorder.hpp). Its seams: worker_client.hpp.
// The run starts it (redis_run.cpp); it is not meant to be started by hand.
#include <CLI/CLI.hpp>

#include <csignal>
#include <cstdio>
#include <mutex>
#include <optional>

#include <fmt/format.h>

#include <filesystem>

#include "attribution.hpp"
#include "client_clock.hpp"
#include "client_wall_mirror.hpp"
#include "external_lock.hpp"
#include "lockcheck/cluster_port.hpp"
#include "lockcheck/entropy.hpp"
#include "lockcheck/sentinel_port.hpp"
#include "lockcheck/thread_spawner.hpp"
#include "lockcheck/variants/registry.hpp"
#include "routed_fronts.hpp"
#include "routing_port.hpp"
#include "start_gate.hpp"
#include "worker_client.hpp"
#include "worker_config.hpp"
#include "worker_recorder.hpp"
#include "workload/workload.hpp"

using namespace lockcheck;
using namespace lockcheck::redis_backend;

namespace {

// The settings an external client reads (judge/PROTOCOL.md): this process's fronts (routed_fronts.hpp), the key, the TTL and the connection name the
// server-side history attributes its commands by.
// On a cluster every node's front is a seed (the client needs one that answers); on a [sentinel] the client
// is given the sentinels' fronts only (the last services), and finds the master by asking them.
std::vector<std::string> external_client_env(const sim::RunConfig& config, const RoutedFronts& fronts, int services,
                                             bool cluster, int process, const std::string& client_name) {
  const bool sentinel = config.sentinel.sentinels > 0;
  const std::vector<int> ports = fronts.ports();
  std::string addresses;
  const std::size_t first = sentinel ? ports.size() - static_cast<std::size_t>(config.sentinel.sentinels) : 0;
  for (std::size_t service = first; service < ports.size(); ++service) {
    addresses += fmt::format("{}127.0.0.1:{}", addresses.empty() ? "" : ",", ports[service]);
  }
  const char* topology = cluster ? "cluster" : sentinel ? "sentinel" : services > 1 ? "redlock" : "single";
  std::vector<std::string> env{"LOCKCHECK_TOPOLOGY=" + std::string(topology),
                               "LOCKCHECK_REDIS=" + addresses,
                               "LOCKCHECK_KEY=" + config.workload.key,
                               fmt::format("LOCKCHECK_TTL_MS={}", config.lock.ttl.count()),
                               fmt::format("LOCKCHECK_COMMAND_TIMEOUT_MS={}", std::max<std::int64_t>(1, config.command_timeout_us / 1000)),
                               "LOCKCHECK_CLIENT_NAME=" + client_name,
                               fmt::format("LOCKCHECK_PROCESS={}", process)};
  if (sentinel) env.push_back("LOCKCHECK_SENTINEL_MASTER=" + config.sentinel.master_name);
  return env;
}

}  // namespace

int main(int argc, char** argv) {
  // Real Redis nodes are killed on purpose: a write to one is a failed call (EPIPE), never the end of this
  // program (the library guards its own writes; this covers the tool's observers and resource client).
  signal(SIGPIPE, SIG_IGN);
  CLI::App app{"lockcheck_redis_worker: one client process of a lockcheck run on real Redis"};
  std::string config_path, routing_path, clock_path, out_path;
  int process = 0, services = 1, resource_port = 0;
  std::int64_t start_ns = 0, end_us = 0;
  std::uint64_t seed = 1, incarnation = 0;
  int gate_fd = -1;
  app.add_option("--config", config_path, "The run's worker configuration (worker_config.hpp)")->required();
  app.add_option("--process", process)->required();
  app.add_option("--services", services)->required();
  app.add_option("--routing", routing_path)->required();
  app.add_option("--clock", clock_path, "This process's ClientClockState file")->required();
  app.add_option("--resource-port", resource_port)->required();
  app.add_option("--start-ns", start_ns)->required();
  app.add_option("--end-us", end_us)->required();
  app.add_option("--seed", seed)->required();
  app.add_option("--incarnation", incarnation, "How many times this process restarted: varies its draws");
  app.add_option("--out", out_path)->required();
  app.add_option("--gate-fd", gate_fd, "The run's start gate (start_gate.hpp): say ready, then start at its time 0");
  CLI11_PARSE(app, argc, argv);
  try {
    std::optional<WorkerGate> gate;
    if (gate_fd >= 0) gate.emplace(gate_fd);
    const sim::RunConfig config = read_worker_config(config_path);
    redis_backend::RoutingTable table(routing_path, false);
    const Millis timeout(std::max<std::int64_t>(1, config.command_timeout_us / 1000));
    redis_backend::RoutingPort port(table, process, services, timeout, worker_client_name(process, incarnation));
    ClientClockState clock_state(clock_path, false);
    ClientClock clock(clock_state);
    OsEntropy entropy;
    WorkerRecorder out(out_path, start_ns, process, clock_state);
    ThreadSpawner spawner;
    std::mutex out_mutex;  // the renewal thread records beside the workload
    VariantParams params{config.scripts};
    params.token_wait = config.token_wait;
    params.permits = config.workload.permits;
    params.latch_count = config.workload.latch_count;
    params.spawner = &spawner;
    params.watchdog.renew_divisor = config.renewal.renew_divisor;
    params.watchdog.max_renewals = config.renewal.max_renewals;
    params.watchdog.max_hold = Millis(config.renewal.max_hold_us / 1000);
    params.watchdog.observer = [&](const RenewalEvent& event) {
      std::lock_guard lock(out_mutex);
      out.record_renewal(event);
    };
    params.wrap_in_watchdog = config.renewal.watchdog;
    // On a cluster the lock sees one node: the library's ClusterPort, routing by slot over every node's link.
    // On a [sentinel] too: the library's SentinelPort, over the links to the data nodes and the sentinels.
    const std::vector<std::string> addresses = read_cluster_addresses(config_path);
    std::optional<ClusterPort> cluster;
    std::optional<SentinelPort> sentinel;
    if (config.sentinel.sentinels > 0) {
      std::vector<std::size_t> sentinels;
      for (std::size_t k = 0; k < static_cast<std::size_t>(config.sentinel.sentinels); ++k) {
        sentinels.push_back(addresses.size() - static_cast<std::size_t>(config.sentinel.sentinels) + k);
      }
      sentinel.emplace(port, addresses, std::move(sentinels), config.sentinel.master_name);
    } else if (!addresses.empty()) {
      cluster.emplace(port, clock, addresses);
    }
    Port& lock_port = cluster ? static_cast<Port&>(*cluster) : sentinel ? static_cast<Port&>(*sentinel) : port;
    std::unique_ptr<LockAlgorithm> lock;
    std::optional<RoutedFronts> fronts;
    std::optional<ClientWallMirror> wall;
    std::optional<judge::ExternalProcess> external_process;
    std::optional<judge::ExternalLock> external;
    if (config.external.command.empty()) {
      lock = make_lock(config.variant, lock_port, clock, entropy, config.lock, params);
    } else {
      const std::string name = worker_client_name(process, incarnation);
      const std::string stderr_path = (std::filesystem::path(out_path).parent_path() / fmt::format("client-{}.stderr", process)).string();
      // A cluster's nodes name each other by the ports they announce (their own once restarted), a [sentinel]'s
      // sentinels the data nodes and each other by the topology's fronts: the fronts rewrite those, and the
      // servers' own ports, into their own.
      std::vector<std::vector<int>> named_ports;
      const std::vector<int> other_ports = read_other_named_ports(config_path);
      for (std::size_t service = 0; service < addresses.size(); ++service) {
        named_ports.push_back({std::stoi(addresses[service].substr(addresses[service].rfind(':') + 1)), other_ports.at(service)});
      }
      fronts.emplace(table, process, services, named_ports, sentinel ? ServerNames::sentinel : ServerNames::cluster);
      std::vector<std::string> env = external_client_env(config, *fronts, services, cluster.has_value(), process, name);
      // The clock shim beside this worker moves the client's wall clock as the run moves this process's.
      const std::filesystem::path tools = std::filesystem::read_symlink("/proc/self/exe").parent_path();
      wall.emplace(clock_state, clock_path + ".wall");
      env.push_back("LD_PRELOAD=" + (tools / "liblockcheck_clock_shim.so").string());
      env.push_back("LOCKCHECK_CLOCK_FILE=" + wall->path());
      external_process.emplace(config.external.command, env, stderr_path);
      // A runtime's start (node loads its modules) fits well inside 30 s on a loaded machine.
      external.emplace(*external_process, clock,
                       judge::ExternalSettings{config.lock.ttl, timeout,
                                               Millis(sim::slowest_own_link_delay_us(config, process) / 1000),
                                               fmt::format("p{}-{}-", process, incarnation), std::chrono::milliseconds(30000),
                                               process});
      // Recorded when it happens: the run may kill this worker soon after (its end).
      external->on_hang([&](const judge::ClientHang& hang) { out.record("client_hung", hang.to_json()); });
      external->on_estimated_validity([&] { out.record("client_validity_estimated", sim::Json{{"process", process}}); });
    }
    LockAlgorithm& the_lock = external ? static_cast<LockAlgorithm&>(*external) : *lock;
    WorkerClient client(WorkerSeams{process, &the_lock, &clock, &spawner, &out, resource_port, config.workload.fencing, seed,
                                    "client/" + std::to_string(process) + "/" + std::to_string(incarnation),
                                    external ? &*external : nullptr});
    // Ready (the lock built, an external client's hello read): the workload starts at the run's time 0.
    if (gate) out.start_at(gate->ready_then_await_start_ns());
    run_sync(sim::run_workload(config.workload, config.variant, end_us, client));
    if (external_process) external_process->stop(std::chrono::milliseconds(2000));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "lockcheck_redis_worker %d: %s\n", process, error.what());
    return 3;
  }
  return 0;
}
