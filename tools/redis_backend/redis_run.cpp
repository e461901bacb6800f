#include "redis_run.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <thread>

#include "attribution.hpp"
#include "client_clock.hpp"
#include "client_hang.hpp"
#include "cluster_formation.hpp"
#include "model/history.hpp"
#include "model/meta_line.hpp"
#include "real_nemesis.hpp"
#include "record_sink.hpp"
#include "reply_bound.hpp"
#include "topology.hpp"
#include "worker_config.hpp"
#include "workers.hpp"

namespace lockcheck::redis_backend {
namespace {

std::atomic<int> g_interrupt_signal{0};
extern "C" void on_interrupt(int signal) { g_interrupt_signal = signal; }

// While a run is on, Ctrl-C and SIGTERM stop it in order (every child killed, every file removed).
class InterruptGuard {
 public:
  InterruptGuard() {
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  ~InterruptGuard() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  static void check() {
    if (const int signal = g_interrupt_signal.load(); signal != 0) {
      throw std::runtime_error(fmt::format("interrupted by signal {}; every server and worker was stopped", signal));
    }
  }

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

// The run's directory, deleted when the run ends; with a `keep` path its regular files are copied there
// first (sockets and the like are not), so that the clients' standard error outlives the run.
class TempDirectory {
 public:
  explicit TempDirectory(std::string keep) : keep_(std::move(keep)) {
    std::string pattern = (std::filesystem::temp_directory_path() / "lockcheck-redis-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot make a temporary directory");
    path_ = pattern;
  }
  ~TempDirectory() {
    std::error_code ignored;
    if (!keep_.empty()) copy_regular_files();
    std::filesystem::remove_all(path_, ignored);
  }
  TempDirectory(const TempDirectory&) = delete;
  TempDirectory& operator=(const TempDirectory&) = delete;
  const std::string& path() const { return path_; }

 private:
  void copy_regular_files() const {
    std::error_code error;
    std::filesystem::remove_all(keep_, error);
    for (auto it = std::filesystem::recursive_directory_iterator(path_, error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
      if (!it->is_regular_file(error)) continue;
      const std::filesystem::path to = keep_ / std::filesystem::relative(it->path(), path_, error);
      std::filesystem::create_directories(to.parent_path(), error);
      std::filesystem::copy_file(it->path(), to, std::filesystem::copy_options::overwrite_existing, error);
    }
    std::fprintf(stderr, "kept the run directory in %s (the clients' standard error: client-<process>.stderr)%s\n",
                 keep_.c_str(), error ? fmt::format(" (incomplete: {})", error.message()).c_str() : "");
  }

  std::string path_;
  std::filesystem::path keep_;
};

// The worker and the clock shim are built next to the lockcheck binary.
std::string tools_directory() {
  if (const char* override_dir = std::getenv("LOCKCHECK_REDIS_TOOLS_DIR")) return override_dir;
  return std::filesystem::read_symlink("/proc/self/exe").parent_path().string();
}

// `server = "serve"`: every server of the run is `lockcheck serve` (next to the worker) instead of redis-server.
std::vector<std::string> program_for(const sim::Scenario& scenario, const std::string& tools) {
  if (scenario.server != "serve") return {};
  return {tools + "/lockcheck", "serve"};
}

// The resource server: never faulted, no keyspace events (nothing observes it).
ServerSpec resource_spec(const std::string& directory, std::vector<std::string> program) {
  ServerSpec spec{directory + "/resource", Persistence::none, 0, "", "", false};
  spec.program = std::move(program);
  return spec;
}

void require_file(const std::string& path) {
  if (!std::filesystem::exists(path)) {
    throw std::runtime_error(fmt::format("{} is missing: build it (cmake --build build) or set LOCKCHECK_REDIS_TOOLS_DIR", path));
  }
}

std::vector<sim::FaultSpec> fault_schedule(const sim::RunConfig& config, std::uint64_t seed) {
  std::vector<sim::FaultSpec> faults = config.faults;
  for (const auto& fault : sim::draw_nemesis_schedule(config, seed)) faults.push_back(fault);
  std::stable_sort(faults.begin(), faults.end(), [](const auto& a, const auto& b) { return a.at_us < b.at_us; });
  return faults;
}

std::vector<Record> read_worker_records(const std::string& path) {
  std::vector<Record> records;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    Json fields = Json::parse(line);
    Record record{fields.at("t").get<std::int64_t>(), fields.at("kind").get<std::string>(), Json::object()};
    for (const auto& [name, value] : fields.items()) {
      if (name != "t" && name != "kind") record.fields[name] = value;
    }
    records.push_back(std::move(record));
  }
  return records;
}

class Run {
 public:
  Run(const sim::Scenario& scenario, std::uint64_t seed, const std::string& directory, const std::string& tools)
      : config_(scenario.config),
        seed_(seed),
        resource_(resource_spec(directory, program_for(scenario, tools))),
        topology_(config_, seed, directory, tools + "/liblockcheck_clock_shim.so", time_, sink_, program_for(scenario, tools)),
        directory_(directory),
        launch_{tools + "/lockcheck_redis_worker", directory + "/worker-config.json", topology_.routing().path(), directory,
                directory, topology_.services(), resource_.port(), 0, config_.duration_us, seed},
        nemesis_(time_, sink_, topology_, static_cast<int>(config_.nodes.size()),
                 [this](std::int64_t at_us, std::function<void()> action) { schedule(at_us, std::move(action)); }) {
    write_worker_config(config_, launch_.config_path, topology_.cluster_addresses(), topology_.other_named_ports());
  }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  RedisRunResult execute() {
    time_ = TimeBase();  // the servers are up; observers start now (their lines before time 0 are placed at 0)
    topology_.observe();
    launch_.start_ns = time_.start_ns();
    for (std::size_t i = 0; i < config_.clients.size(); ++i) {
      const sim::ClockConfig& clock = config_.clients[i].clock;
      client_clocks_.push_back(std::make_unique<ClientClockState>(
          fmt::format("{}/client-{}.clock", directory_, i), true, time_.start_ns(), clock.wall_offset_us, clock.drift_ppm));
    }
    workers_ = std::make_unique<Workers>(launch_, static_cast<int>(config_.clients.size()));
    nemesis_.attach(*workers_, client_clocks_);
    const std::vector<sim::FaultSpec> faults = fault_schedule(config_, seed_);
    // Faults at t=0 (a partition from the start) are in place before any client starts.
    for (const sim::FaultSpec& fault : faults) {
      if (fault.at_us <= 0 && !on_a_process(fault)) apply(fault);
    }
    start();
    await_clients_ready();
    for (const sim::FaultSpec& fault : faults) {
      if (fault.at_us <= 0 && !on_a_process(fault)) continue;
      // A pause, crash or restart of a client at t=0 needs the client started: right after, not before (it
      // found no process and did nothing).
      const std::int64_t at_us = on_a_process(fault) ? std::max<std::int64_t>(fault.at_us, 1) : fault.at_us;
      schedule(zero_us_ + at_us, [this, fault] { apply(fault); });
    }
    drive();
    return finish();
  }

 private:
  static bool on_a_process(const sim::FaultSpec& fault) {
    return fault.kind == sim::FaultKind::pause || fault.kind == sim::FaultKind::crash || fault.kind == sim::FaultKind::restart;
  }

  void start() {
    for (int process = 0; process < workers_->count(); ++process) workers_->start(process, true);
  }

  // Time 0 is when every client is ready (start_gate.hpp; judge/PROTOCOL.md "Time 0"): a client's runtime may
  // take seconds to start on a loaded machine, and the scenario's faults are placed against its workload.
  // Bounded: a worker gives its external client 30 s for its hello, then exits with why.
  void await_clients_ready() {
    constexpr std::int64_t kReadyBoundUs = 60'000'000;
    const std::int64_t began_us = time_.now_us();
    for (;;) {
      InterruptGuard::check();
      if (const std::string failure = workers_->reap(); !failure.empty()) throw std::runtime_error(failure);
      const std::vector<int> waiting = workers_->not_ready();
      if (waiting.empty()) break;
      if (time_.now_us() - began_us > kReadyBoundUs) {
        throw std::runtime_error(fmt::format("client {} did not get ready within {} s (no hello line, PROTOCOL.md)",
                                             fmt::join(waiting, ", "), kReadyBoundUs / 1'000'000));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    const std::int64_t start_ns = monotonic_ns();
    for (auto& clock : client_clocks_) clock->start_at(start_ns);
    zero_us_ = (start_ns - time_.start_ns()) / 1000;
    workers_->go(start_ns);
  }

  void run_next_action() {
    auto action = std::move(actions_.begin()->second);
    actions_.erase(actions_.begin());
    action();
  }

  void schedule(std::int64_t at_us, std::function<void()> action) { actions_.emplace(std::make_pair(at_us, next_action_++), std::move(action)); }

  // Real time: sleeps until the next fault (at most 20 ms at a time, to notice Ctrl-C and failed workers).
  void drive() {
    for (;;) {
      InterruptGuard::check();
      if (const std::string failure = workers_->reap(); !failure.empty()) throw std::runtime_error(failure);
      const std::int64_t now = time_.now_us();
      if (now >= zero_us_ + config_.duration_us) return;
      // The sentinels act by themselves: their promotions and re-pointings are recorded within 10 ms.
      // So does a cluster's majority after a split-brain or a master's crash, and the old master after the
      // heal or its restart.
      if ((topology_.sentinel() || topology_.cluster_change_under_way()) && now >= next_role_look_us_) {
        if (topology_.sentinel()) topology_.follow_sentinels(now);
        else topology_.follow_cluster(now);
        next_role_look_us_ = now + 10'000;
      }
      if (!actions_.empty() && actions_.begin()->first.first <= now) {
        run_next_action();
        continue;
      }
      const std::int64_t end = zero_us_ + config_.duration_us;
      const std::int64_t next = actions_.empty() ? end : std::min(end, actions_.begin()->first.first);
      std::this_thread::sleep_for(std::chrono::microseconds(std::clamp<std::int64_t>(next - now, 0, 20'000)));
    }
  }

  void apply(const sim::FaultSpec& fault) { sim::apply_fault(fault, nemesis_); }
  // An external client's worker finishes its round (it starts none past the end) before the kill below, so a
  // request outstanding at the end still meets its reply bound: a hang is reported, not cut off. Bounded by
  // that bound, the round's hold and think time, and the worker's stop of its client, plus slack.
  void let_external_workers_finish() {
    if (config_.external.command.empty()) return;
    for (int process = 0; process < workers_->count(); ++process) {
      if (nemesis_.paused(process)) workers_->crash(process);  // stopped, it would only use up the wait
    }
    const sim::WorkloadConfig& workload = config_.workload;
    std::int64_t slowest_link_us = 0;
    for (int process = 0; process < workers_->count(); ++process) {
      slowest_link_us = std::max(slowest_link_us, sim::slowest_own_link_delay_us(config_, process));
    }
    const auto bound = judge::reply_bound(std::chrono::milliseconds(workload.wait_us / 1000),
                                          std::chrono::milliseconds(config_.command_timeout_us / 1000),
                                          std::chrono::milliseconds(slowest_link_us / 1000)) +
                       std::chrono::milliseconds((workload.hold_max_us + workload.think_max_us) / 1000) + std::chrono::seconds(10);
    const auto deadline = std::chrono::steady_clock::now() + bound;
    auto any_alive = [&] {
      for (int process = 0; process < workers_->count(); ++process) {
        if (workers_->alive(process)) return true;
      }
      return false;
    };
    // Bounded by the deadline, in 20 ms steps (as drive(): Ctrl-C and failed workers are noticed).
    while (any_alive() && std::chrono::steady_clock::now() < deadline) {
      InterruptGuard::check();
      if (const std::string failure = workers_->reap(); !failure.empty()) throw std::runtime_error(failure);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  RedisRunResult finish() {
    let_external_workers_finish();
    workers_->kill_all();
    // Let the observers take in the last notifications before they stop.
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    topology_.stop_observing();
    std::vector<Record> records = sink_.take();
    // The run's own lines were timed from the servers' start: from time 0 now (a fault in place from the start,
    // the servers' initial state, at 0). The workers' lines are timed from time 0 already.
    for (Record& record : records) {
      record.t_us = std::max<std::int64_t>(0, record.t_us - zero_us_);
      if (const auto since = record.fields.find("since_us"); since != record.fields.end() && since->is_number_integer()) {
        *since = std::max<std::int64_t>(0, since->get<std::int64_t>() - zero_us_);
      }
    }
    for (int process = 0; process < workers_->count(); ++process) {
      for (Record& record : read_worker_records(workers_->output_path(process))) records.push_back(std::move(record));
    }
    // One master: a command's effect comes before its reply, so a server line goes no later than that. On a
    // cluster a worker's commands go to one node at a time, each answered before the next: the same holds.
    // Through a SentinelPort too: one node at a time.
    // Hangs are reported beside the history, not in it: found after the end too, and not an event of the lock.
    std::vector<std::string> client_hangs;
    std::set<std::int64_t> estimated_validity;  // the clients that report no validity of their own: said in the meta
    std::erase_if(records, [&](const Record& record) {
      if (record.kind == "client_validity_estimated") {
        estimated_validity.insert(record.fields.at("process").get<std::int64_t>());
        return true;
      }
      if (record.kind != "client_hung") return false;
      client_hangs.push_back(judge::ClientHang::from_json(record.fields).describe());
      return true;
    });
    if (topology_.services() == 1 || topology_.cluster() || topology_.sentinel()) place_server_events(records, !config_.external.command.empty());
    std::erase_if(records, [&](const Record& record) { return record.t_us > config_.duration_us; });
    std::stable_sort(records.begin(), records.end(), [](const Record& a, const Record& b) { return a.t_us < b.t_us; });
    sim::History history;
    sim::Json meta = sim::history_meta(config_, seed_);
    meta["backend"] = "redis";
    // Real replication has no lag bound the run knows (the proxy's delay is only part of it): a failover may
    // have lost any write, as checkers assume without the field.
    meta.erase("replication_lag_max_us");
    meta["clients_ready_ms"] = zero_us_ / 1000;  // from the servers' start to time 0 (every client ready)
    if (!estimated_validity.empty()) meta["estimated_validity"] = estimated_validity;
    if (topology_.cluster()) {
      // Which node serves which slots at the start, as the simulator's meta line says.
      Json shards = Json::array();
      for (int shard = 0; shard < config_.cluster.shards; ++shard) {
        const auto [first, last] = initial_slot_range(config_.cluster, shard);
        shards.push_back(Json{{"node", shard}, {"slots", Json::array({Json::array({first, last})})}});
      }
      meta["shards"] = std::move(shards);
    }
    if (topology_.sentinel()) {
      const sim::SentinelConfig& sentinel = config_.sentinel;
      meta["sentinel"] = Json{{"sentinels", sentinel.sentinels}, {"quorum", sentinel.quorum}, {"master", 0},
                              {"down_after_ms", sentinel.down_after_us / 1000},
                              {"min_replicas_to_write", sentinel.min_replicas_to_write},
                              {"formation_ms", topology_.sentinel_formation_ms()}};
    }
    history.record(0, "meta", meta);
    for (const Record& record : records) history.record(record.t_us, record.kind.c_str(), record.fields);
    history.record(config_.duration_us, "end", sim::Json::object());  // the run reached its end (sim/README.md)

    RedisRunResult result;
    result.jsonl = history.jsonl();
    result.client_hangs = std::move(client_hangs);
    const Gaps gaps = topology_.gaps();
    if (gaps.unobserved + gaps.unattributed > 0) {
      std::string reasons;
      for (const auto& [reason, n] : gaps.reasons) reasons += fmt::format("{}{} x {}", reasons.empty() ? "" : "; ", n, reason);
      const std::string why = fmt::format(
          "not observable on the redis backend in this run: {} server event(s) whose state is unknown, {} whose client "
          "is unknown ({}; tools/redis_backend/README.md)",
          gaps.unobserved, gaps.unattributed, reasons);
      for (const char* property : {"mutual_exclusion_server", "owner_only_release", "reentrancy"}) result.unobservable[property] = why;
      // An unknown state has no known deadline either.
      if (gaps.unobserved > 0) result.unobservable["bounded_unavailability"] = why;
    }
    return result;
  }

  const sim::RunConfig& config_;
  std::uint64_t seed_;
  TimeBase time_;
  RecordSink sink_;
  ServerProcess resource_;
  Topology topology_;
  std::string directory_;
  WorkerLaunch launch_;
  std::vector<std::unique_ptr<ClientClockState>> client_clocks_;
  std::unique_ptr<Workers> workers_;
  std::map<std::pair<std::int64_t, std::uint64_t>, std::function<void()>> actions_;
  std::uint64_t next_action_ = 0;
  RealNemesis nemesis_;
  std::int64_t next_role_look_us_ = 0;
  std::int64_t zero_us_ = 0;  // time 0 (every client ready) on time_'s scale, which starts with the servers
};

}  // namespace

void check_supported(const sim::RunConfig& config, std::uint64_t seed) {
  auto refuse = [](const std::string& what) {
    throw std::invalid_argument("the redis backend cannot make this real yet: " + what + " (use --backend mock)");
  };
  if (config.clients.size() > static_cast<std::size_t>(kMaxProcesses)) refuse("more than 32 clients");
  if (config.nodes.size() > static_cast<std::size_t>(kMaxServices)) refuse("more than 16 nodes");
  const bool cluster = config.cluster.shards > 0;
  const bool sentinel = config.sentinel.sentinels > 0;
  if (config.nodes.size() + static_cast<std::size_t>(config.sentinel.sentinels) > static_cast<std::size_t>(kMaxServices)) {
    refuse("more than 16 nodes and sentinels");
  }
  if (sentinel) {
    for (const auto& fault : fault_schedule(config, seed)) {
      if (!sim::fault_row(fault.kind).on_redis_sentinel) {
        refuse(fmt::format("fault '{}' on a [sentinel]", sim::to_string(fault.kind)));
      }
    }
  }
  for (const auto& node : config.nodes) {
    if (node.maxmemory_keys > 0) refuse("maxmemory eviction");
  }
  if (!config.external.command.empty()) {
    // A scenario file's [client] was checked at its line; a configuration built otherwise (compare's rows) here.
    if (const std::string refusal = sim::external_client_refusal(config); !refusal.empty()) throw std::invalid_argument(refusal);
  }
  for (const auto& fault : fault_schedule(config, seed)) {
    const bool split_brain_needs_topology = fault.kind == sim::FaultKind::split_brain && !sentinel && !cluster;
    if (!real_backend_supports(fault.kind) || split_brain_needs_topology) refuse(fmt::format("fault '{}'", sim::to_string(fault.kind)));
  }
}

void check_servable(const sim::RunConfig& config, std::uint64_t seed) {
  // The scenario reader refuses these at their lines (read_server.cpp); this guards configurations built
  // otherwise (compare's rows) and the nemesis's draws.
  auto refuse = [](const std::string& what) {
    throw std::invalid_argument("`lockcheck serve` runs single nodes (no replication, cluster, sentinel or persistence): "
                                "it cannot run " + what + " (use redis-server)");
  };
  if (config.cluster.shards > 0 || config.sentinel.sentinels > 0) refuse("a [cluster] or [sentinel]");
  for (const auto& node : config.nodes) {
    if (node.replica_of >= 0) refuse("a replica");
  }
  for (const auto& fault : fault_schedule(config, seed)) {
    if (!sim::fault_row(fault.kind).on_serve) refuse(fmt::format("fault '{}'", sim::to_string(fault.kind)));
    if (sim::fault_row(fault.kind).fields.mode && fault.mode != sim::RestartMode::lost) refuse("a node_restart that keeps data");
  }
}

RedisRunResult run_on_redis(const sim::Scenario& scenario, std::uint64_t seed, const std::string& keep_dir) {
  check_supported(scenario.config, seed);
  const std::string tools = tools_directory();
  require_file(tools + "/lockcheck_redis_worker");
  require_file(tools + "/liblockcheck_clock_shim.so");
  if (scenario.server == "serve") {
    check_servable(scenario.config, seed);
    require_file(tools + "/lockcheck");
  }
  InterruptGuard interrupts;
  g_interrupt_signal = 0;
  TempDirectory directory(keep_dir.empty() ? std::string()
                                           : (std::filesystem::path(keep_dir) / fmt::format("{}-seed{}", scenario.name, seed)).string());
  Run run(scenario, seed, directory.path(), tools);
  return run.execute();
}

}  // namespace lockcheck::redis_backend
