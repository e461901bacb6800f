#include "topology.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <utility>

#include "model/meta_line.hpp"
#include "lockcheck/variants/registry.hpp"

namespace lockcheck::redis_backend {
namespace {

// How a node persists: enough for the strongest restart the scenario asks of it.
Persistence persistence_for(const sim::RunConfig& config, int node) {
  bool kept = false, everysec = false;
  auto note = [&](sim::RestartMode mode) {
    kept = kept || mode == sim::RestartMode::kept;
    everysec = everysec || mode == sim::RestartMode::aof_everysec;
  };
  for (const auto& fault : config.faults) {
    if (fault.kind == sim::FaultKind::node_restart && fault.node == node) note(fault.mode);
  }
  if (config.nemesis.node_crash_every_us > 0) note(config.nemesis.restart_mode);
  // A family's node crashes (NemesisConfig::drawn): their restart mode, or the strongest when it is drawn.
  for (const auto& stream : config.nemesis.drawn) {
    if (stream.kind != sim::FaultKind::node_crash) continue;
    if (stream.ranges.restart_mode) note(*stream.ranges.restart_mode);
    else note(sim::RestartMode::kept);
  }
  return kept ? Persistence::aof_always : everysec ? Persistence::aof_everysec : Persistence::none;
}

// Client links go through proxies only when the scenario has link faults; otherwise clients connect directly.
bool needs_link_proxies(const sim::RunConfig& config) {
  if (config.nemesis.partition_every_us > 0 || !config.link_overrides.empty()) return true;
  if (config.link.request_loss_ppm > 0 || config.link.reply_loss_ppm > 0) return true;
  const auto on_links = [](sim::FaultKind kind) {
    return kind == sim::FaultKind::partition || kind == sim::FaultKind::slow_node || kind == sim::FaultKind::loss ||
           kind == sim::FaultKind::split_brain;
  };
  for (const auto& stream : config.nemesis.drawn) {
    if (on_links(stream.kind)) return true;
  }
  for (const auto& fault : config.faults) {
    if (on_links(fault.kind)) {
      return true;
    }
  }
  return false;
}

// A [sentinel]'s nodes refuse writes with too few good replicas when the scenario says so. Redis counts the
// lag in whole seconds (a replica acknowledges once a second): the scenario's milliseconds, rounded up.
std::vector<std::string> sentinel_node_args(const sim::SentinelConfig& sentinel) {
  if (sentinel.min_replicas_to_write == 0) return {};
  return {"--min-replicas-to-write", std::to_string(sentinel.min_replicas_to_write), "--min-replicas-max-lag",
          std::to_string((sentinel.min_replicas_max_lag_us + 999999) / 1000000)};
}

}  // namespace

Topology::Topology(const sim::RunConfig& config, std::uint64_t seed, const std::string& directory,
                   const std::string& clock_shim, const TimeBase& time, RecordSink& sink, std::vector<std::string> program)
    : config_(config), time_(time), sink_(sink), keys_{config.workload.key}, routing_(directory + "/routing", true) {
  const int nodes = static_cast<int>(config.nodes.size());
  // The keys the variant writes besides the lock key (rw-two-keys' read key) are lock keys too.
  for (const LockShape::DerivedKey& derived : sim::lock_shape_of(config).derived_keys) keys_.insert(derived.key);
  servers_.resize(static_cast<std::size_t>(nodes));
  observers_.resize(static_cast<std::size_t>(nodes));
  replication_links_.resize(static_cast<std::size_t>(nodes));
  fronts_.resize(static_cast<std::size_t>(nodes));
  state_at_crash_.resize(static_cast<std::size_t>(nodes));
  role_at_restart_.assign(static_cast<std::size_t>(nodes), kNoRoleChange);
  for (int i = 0; i < nodes; ++i) {
    clocks_.push_back(std::make_unique<ServerClock>(directory + "/node-" + std::to_string(i) + ".clock"));
    const sim::ClockConfig& skew = config.nodes[static_cast<std::size_t>(i)].clock;
    if (skew.wall_offset_us != 0) clocks_.back()->jump(skew.wall_offset_us);
    if (skew.drift_ppm != 0) clocks_.back()->set_drift(skew.drift_ppm);
    replica_of_.push_back(config.nodes[static_cast<std::size_t>(i)].replica_of);
  }
  // Masters first: a replica's `replicaof` needs its master's port (through a delaying link).
  if (cluster()) {
    std::vector<Persistence> persistence;
    for (int i = 0; i < nodes; ++i) persistence.push_back(persistence_for(config, i));
    start_cluster(directory, clock_shim, persistence);
  }
  for (int pass = 0; pass < (cluster() ? 0 : 2); ++pass) {
    for (int i = 0; i < nodes; ++i) {
      const int master = replica_of_[static_cast<std::size_t>(i)];
      if ((pass == 0) != (master < 0)) continue;
      ServerSpec spec{directory + "/node-" + std::to_string(i), persistence_for(config, i), 0, clock_shim,
                      clocks_[static_cast<std::size_t>(i)]->path(), true};
      spec.program = program;
      if (sentinel()) {
        // Each data node's address for the sentinels and the replicas is a front proxy, which a split-brain
        // cuts: the master's as the sentinels monitor it, a replica's as it announces itself (the sentinels
        // learn it from the master's INFO and later re-point the others there). Made before the server, whose
        // port it learns after.
        spec.extra_args = sentinel_node_args(config.sentinel);
        fronts_[static_cast<std::size_t>(i)] = std::make_unique<LinkProxy>(0, 0);
        const std::string front = std::to_string(fronts_[static_cast<std::size_t>(i)]->port());
        spec.extra_args.insert(spec.extra_args.end(), {"--replica-announce-ip", "127.0.0.1", "--replica-announce-port", front});
        // The sentinels' address of the master: a replica whose master address differs from theirs would be
        // re-pointed by them (after failover-timeout).
        if (master >= 0) spec.replica_of_port = fronts_[static_cast<std::size_t>(master)]->port();
      } else if (master >= 0) {
        replication_links_[static_cast<std::size_t>(i)] = std::make_unique<LinkProxy>(servers_[static_cast<std::size_t>(master)]->port(), 0);
        spec.replica_of_port = replication_links_[static_cast<std::size_t>(i)]->port();
      }
      servers_[static_cast<std::size_t>(i)] = std::make_unique<ServerProcess>(spec);
      if (auto& front = fronts_[static_cast<std::size_t>(i)]) front->set_target_port(servers_[static_cast<std::size_t>(i)]->port());
    }
  }
  wait_for_replicas();
  if (sentinel()) start_sentinels();
  // The initial sync went through at full speed; from now on the replication stream lags.
  for (auto& link : announce_links_) {
    link->set_delay((config.cluster.replication_lag_min_us + config.cluster.replication_lag_max_us) / 2);
  }
  for (auto& front : fronts_) {
    if (front) front->set_delay((config.sentinel.replication_lag_min_us + config.sentinel.replication_lag_max_us) / 2);
  }
  for (int i = 0; i < nodes; ++i) {
    if (auto& link = replication_links_[static_cast<std::size_t>(i)]) {
      const auto& node = config.nodes[static_cast<std::size_t>(i)];
      link->set_delay((node.replication_lag_min_us + node.replication_lag_max_us) / 2);
    }
  }
  if (needs_link_proxies(config)) {
    for (int process = 0; process < static_cast<int>(config.clients.size()); ++process) {
      for (int endpoint = 0; endpoint < endpoints(); ++endpoint) {
        const std::uint64_t link_seed = sim::derive_seed(seed, "link/" + std::to_string(process) + "/" + std::to_string(endpoint));
        links_[{process, endpoint}] = std::make_unique<LinkProxy>(endpoint_port(endpoint), 0, true, link_seed);
      }
    }
    for (const sim::LinkOverride& entry : config.link_overrides) {
      link(entry.process, entry.node).set_delay((entry.link.delay_min_us + entry.link.delay_max_us) / 2);
    }
    set_loss(config.link.request_loss_ppm, config.link.reply_loss_ppm);
  }
  if (cluster() || sentinel()) {
    // ClusterPort addresses every node; SentinelPort every node and every sentinel.
    for (int endpoint = 0; endpoint < endpoints(); ++endpoint) service_node_.push_back(endpoint);
  } else {
    service_node_ = sim::master_nodes(config);
  }
  refusing_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (refusing_fd_ < 0 || bind(refusing_fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      getsockname(refusing_fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    throw std::runtime_error("cannot reserve a refusing port for partitions");
  }
  refusing_port_ = ntohs(address.sin_port);
  publish_routing();
}

Topology::~Topology() {
  stop_observing();
  sentinels_.reset();  // first: no failover while the nodes go down
  for (auto& front : fronts_) {
    if (front) front->stop();
  }
  for (auto& [ends, proxy] : links_) proxy->stop();
  for (auto& link : replication_links_) {
    if (link) link->stop();
  }
  for (auto& link : announce_links_) link->stop();
  for (auto& link : bus_links_) link->stop();
  for (auto& server : servers_) {
    if (server) server->kill();
  }
  if (refusing_fd_ >= 0) close(refusing_fd_);
}

void Topology::wait_for_replicas() {
  for (std::size_t i = 0; i < servers_.size(); ++i) {
    if (replica_of_[i] < 0) continue;
    bool up = false;
    for (int attempt = 0; attempt < 200 && !up; ++attempt) {  // up to ~10 s
      up = run_command(servers_[i]->port(), {"INFO", "replication"}).text.find("master_link_status:up") != std::string::npos;
      if (!up) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (!up) throw std::runtime_error("replica node " + std::to_string(i) + " did not connect to its master");
  }
}

void Topology::publish_routing(const std::set<int>& blocked_nodes) {
  for (int process = 0; process < static_cast<int>(config_.clients.size()); ++process) {
    std::vector<int> ports;
    for (int node : service_node_) {
      // On a [sentinel] clients reach only observed nodes (the masters), so no write goes unseen; a replica
      // they are sent to refuses the connection and their SentinelPort asks the sentinels again.
      const bool unobserved = sentinel() && node < static_cast<int>(servers_.size()) && !observers_[static_cast<std::size_t>(node)];
      if (blocked_nodes.count(node) > 0 || unobserved || held_off_until_rejoin(node)) ports.push_back(refusing_port_);
      else if (!links_.empty()) ports.push_back(link(process, node).port());
      else ports.push_back(endpoint_port(node));
    }
    routing_.publish(process, ports);
  }
}

void Topology::observe() {
  for (std::size_t i = 0; i < servers_.size(); ++i) {
    if (replica_of_[i] < 0) {
      observers_[i] = std::make_unique<NodeObserver>(static_cast<int>(i), servers_[i]->port(), keys_, time_, sink_, cluster(),
                                                     clocks_[i].get());
    }
  }
  if (sentinel()) publish_routing();  // the master is observed now: open it to clients
}

void Topology::stop_observing() {
  for (auto& observer : observers_) {
    if (!observer) continue;
    observer->stop();
    retired_gaps_.add(observer->gaps());
    observer.reset();
  }
}

Gaps Topology::gaps() const {
  Gaps total = retired_gaps_;
  for (const auto& observer : observers_) {
    if (observer) total.add(observer->gaps());
  }
  return total;
}

void Topology::record_lost(std::int64_t t_us, int node, const std::string& key, const KeyState& state) {
  sink_.add(t_us, "server", Json{{"node", node}, {"event", "lost"}, {"key", key}, {"value", state.value},
                                 {"by", -1}, {"command", ""}, {"node_time_ms", 0}, {"expire_at_ms", state.expire_at_ms}});
}

// Compares what a node held before (at its crash, or the old master's view at a failover) with what it
// holds now, and records what vanished as `lost` on `node_of_record` at `t_us` (the simulator's convention;
// not with `record_losses` false: an old master still up keeps its copy until it is re-pointed).

void Topology::start_observer(int node, const std::map<std::string, KeyState>& before, std::int64_t t_us, int node_of_record,
                              bool record_losses) {
  auto& slot = observers_[static_cast<std::size_t>(node)];
  slot = std::make_unique<NodeObserver>(node, servers_[static_cast<std::size_t>(node)]->port(), keys_, time_, sink_, cluster(),
                                        clocks_[static_cast<std::size_t>(node)].get());
  for (const auto& [key, now] : slot->initial_state()) {
    auto it = before.find(key);
    const bool had = it != before.end() && it->second.present;
    if (record_losses && had && (!now.present || now.value != it->second.value)) record_lost(t_us, node_of_record, key, it->second);
    if (now.present && (!had || now.value != it->second.value)) {
      // A copy the node has that the run never saw written there (an older write replayed from the AOF).
      sink_.add(t_us, "server", Json{{"node", node}, {"event", "created"}, {"key", key}, {"value", now.value},
                                     {"by", -1}, {"command", ""}, {"node_time_ms", 0}, {"expire_at_ms", now.expire_at_ms}});
    }
  }
}

void Topology::take_role(std::size_t node, int role) const {
  const Command command = role < 0 ? Command{"REPLICAOF", "NO", "ONE"}
                                   : Command{"REPLICAOF", "127.0.0.1", std::to_string(servers_.at(static_cast<std::size_t>(role))->port())};
  run_command(servers_.at(node)->port(), command);
}

void Topology::node_crash(int node) {
  servers_.at(static_cast<std::size_t>(node))->kill();
  // After the kill: the observer takes in every change the node made up to its death.
  auto& observer = observers_.at(static_cast<std::size_t>(node));
  if (observer) {
    observer->drain();
    state_at_crash_[static_cast<std::size_t>(node)] = observer->last_state();
    retired_gaps_.add(observer->gaps());
    observer.reset();
  }
  if (cluster()) cluster_node_crashed(node);
}

void Topology::node_restart(int node, sim::RestartMode mode, std::int64_t t_us) {
  // Clients are kept off the node until its observer listens, so no write goes unseen.
  publish_routing({node});
  if (cluster()) cluster_node_restarting(node);
  servers_.at(static_cast<std::size_t>(node))->restart(mode != sim::RestartMode::lost);
  if (const int role = std::exchange(role_at_restart_[static_cast<std::size_t>(node)], kNoRoleChange); role != kNoRoleChange) {
    take_role(static_cast<std::size_t>(node), role);
  }
  // A [sentinel]'s old master comes back a master, until the sentinels re-point it (follow_sentinels).
  const bool master = sentinel() ? run_command(servers_.at(static_cast<std::size_t>(node))->port(), {"ROLE"}).elements.at(0).text == "master"
                                 : replica_of_[static_cast<std::size_t>(node)] < 0;
  if (master) start_observer(node, state_at_crash_[static_cast<std::size_t>(node)], t_us, node);
  publish_routing();
}

void Topology::failover(int replica, std::int64_t t_us) {
  const int old_master = replica_of_.at(static_cast<std::size_t>(replica));
  if (old_master < 0) return;
  // Sentinel fences the old master off; here it is killed, and what was still on the link is lost with it.
  servers_[static_cast<std::size_t>(old_master)]->kill();
  auto& lagging_link = cluster() ? announce_links_[static_cast<std::size_t>(old_master)] : replication_links_[static_cast<std::size_t>(replica)];
  lagging_link->stop();
  std::map<std::string, KeyState> before = state_at_crash_[static_cast<std::size_t>(old_master)];
  if (auto& observer = observers_[static_cast<std::size_t>(old_master)]) {
    observer->drain();  // every change the old master made up to its death
    before = observer->last_state();
    retired_gaps_.add(observer->gaps());
    observer.reset();
  }
  if (cluster()) {
    cluster_failover(replica, old_master);
    start_observer(replica, before, t_us, old_master);
    publish_routing();
    return;
  }
  // A node down at the failover (crashed, not yet restarted) takes its new role when it restarts; a promoted one
  // is then observed from the old master's state, its losses recorded at its restart (nothing was granted there
  // meanwhile: it was down).
  const auto take_role_now_or_at_restart = [&](std::size_t node, int role) {
    if (servers_[node]->up()) take_role(node, role);
    else role_at_restart_[node] = role;
  };
  take_role_now_or_at_restart(static_cast<std::size_t>(replica), -1);
  replica_of_[static_cast<std::size_t>(replica)] = -1;
  for (std::size_t other = 0; other < servers_.size(); ++other) {
    if (replica_of_[other] != old_master) continue;
    take_role_now_or_at_restart(other, replica);
    replica_of_[other] = replica;
  }
  if (servers_[static_cast<std::size_t>(replica)]->up()) start_observer(replica, before, t_us, old_master);
  else state_at_crash_[static_cast<std::size_t>(replica)] = before;
  for (int& node : service_node_) {
    if (node == old_master) node = replica;
  }
  publish_routing();
}

void Topology::partition(int process, int node) { link(process, node).set_partitioned(true); }

void Topology::heal() {
  for (auto& [ends, proxy] : links_) proxy->set_partitioned(false);
  for (auto& front : fronts_) {
    if (!front) continue;
    front->set_partitioned(false);
    front->set_partitioned_sources({});
  }
  if (sentinels_) sentinels_->heal();
  for (auto& bus : bus_links_) {
    bus->set_partitioned(false);
    bus->set_partitioned_sources({});
  }
  for (auto& link : announce_links_) link->set_partitioned(false);
}

void Topology::set_loss(std::uint32_t request_ppm, std::uint32_t reply_ppm) {
  for (auto& [ends, proxy] : links_) {
    std::uint32_t request = request_ppm, reply = reply_ppm;
    for (const sim::LinkOverride& entry : config_.link_overrides) {
      if (entry.process != ends.first || entry.node != ends.second) continue;
      request = std::max(request, entry.link.request_loss_ppm);
      reply = std::max(reply, entry.link.reply_loss_ppm);
    }
    proxy->set_loss(request, reply);
  }
}

// One way each direction: a round trip to the node takes `delay_us` longer, as in the simulator.
void Topology::slow_node(int node, std::int64_t delay_us) {
  for (auto& [ends, proxy] : links_) {
    if (ends.second == node) proxy->set_delay(delay_us / 2);
  }
}

void Topology::clock_jump(int node, std::int64_t delta_us) { clocks_.at(static_cast<std::size_t>(node))->jump(delta_us); }

void Topology::clock_drift(int node, std::int64_t drift_ppm) {
  clocks_.at(static_cast<std::size_t>(node))->set_drift(drift_ppm);
}

}  // namespace lockcheck::redis_backend
