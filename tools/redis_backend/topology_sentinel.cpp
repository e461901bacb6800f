// The Topology's Redis Sentinel parts (topology.hpp): the sentinels, the split-brain, and following what the
// sentinels do by themselves (promotions, old masters re-pointed).
#include <fmt/format.h>

#include <set>

#include "model/fault_lines.hpp"
#include "topology.hpp"

namespace lockcheck::redis_backend {

int Topology::endpoint_port(int endpoint) const {
  const int nodes = static_cast<int>(servers_.size());
  return endpoint < nodes ? servers_.at(static_cast<std::size_t>(endpoint))->port() : sentinels_->port(endpoint - nodes);
}

void Topology::start_sentinels() {
  sentinels_ = std::make_unique<SentinelGroup>(config_.sentinel, fronts_.at(0)->port());
  sentinel_formation_ms_ = sentinels_->wait_formed(config_.sentinel.replicas);
}

std::vector<std::string> Topology::cluster_addresses() const {
  std::vector<std::string> addresses;
  if (cluster()) {
    for (const auto& link : announce_links_) addresses.push_back("127.0.0.1:" + std::to_string(link->port()));
  } else if (sentinel()) {
    // The data nodes as the sentinels name them (their fronts), then the sentinels.
    for (int endpoint = 0; endpoint < endpoints(); ++endpoint) {
      const bool data_node = endpoint < static_cast<int>(fronts_.size());
      const int port = data_node ? fronts_[static_cast<std::size_t>(endpoint)]->port() : endpoint_port(endpoint);
      addresses.push_back("127.0.0.1:" + std::to_string(port));
    }
  }
  return addresses;
}

std::vector<int> Topology::other_named_ports() const {
  std::vector<int> ports;
  if (!cluster() && !sentinel()) return ports;
  for (const auto& server : servers_) ports.push_back(server->port());
  for (int sentinel = 0; sentinel < (sentinels_ ? sentinels_->count() : 0); ++sentinel) ports.push_back(sentinels_->announced_port(sentinel));
  return ports;
}

bool Topology::sentinel_split_brain(int master, int process) {
  if (master < 0 || master >= static_cast<int>(fronts_.size()) || sentinel_master_ != master ||
      !observers_.at(static_cast<std::size_t>(master))) {
    return false;
  }
  const int stranded = config_.sentinel.sentinels_on_master_side;
  if (stranded == 0) {
    fronts_[static_cast<std::size_t>(master)]->set_partitioned(true);
  } else {
    // The master keeps the sentinels on its side and loses its replicas (which dial it from 127.0.0.1) and
    // the other sentinels; the replicas lose the sentinels on the master's side; the sentinels split in two.
    std::set<std::string> majority{"127.0.0.1"}, minority;
    for (int sentinel = 0; sentinel < sentinels_->count(); ++sentinel) {
      (sentinels_->on_master_side(sentinel, stranded) ? minority : majority).insert(SentinelGroup::source_address(sentinel));
    }
    for (std::size_t node = 0; node < fronts_.size(); ++node) {
      fronts_[node]->set_partitioned_sources(static_cast<int>(node) == master ? majority : minority);
    }
    sentinels_->split_sides(stranded);
  }
  const int nodes = static_cast<int>(servers_.size());
  for (auto& [ends, proxy] : links_) {
    const int endpoint = ends.second;
    const bool master_side = endpoint == master || (endpoint >= nodes && sentinels_->on_master_side(endpoint - nodes, stranded));
    if ((ends.first == process) != master_side) proxy->set_partitioned(true);
  }
  return true;
}

void Topology::follow_sentinels(std::int64_t t_us) {
  std::vector<std::string> roles;
  for (const auto& server : servers_) {
    try {
      roles.push_back(run_command(server->port(), {"ROLE"}).elements.at(0).text);
    } catch (const std::exception&) {
      roles.emplace_back();  // down (crashed, or loading): nothing to follow yet
    }
  }
  // Promotions first: an old master re-pointed is recorded as a replica of the master the sentinels chose.
  for (int node = 0; node < static_cast<int>(roles.size()); ++node) {
    if (roles[static_cast<std::size_t>(node)] == "master" && !observers_[static_cast<std::size_t>(node)] && node != sentinel_master_) {
      sentinel_promoted(node, t_us);
    }
  }
  for (int node = 0; node < static_cast<int>(roles.size()); ++node) {
    if (roles[static_cast<std::size_t>(node)] == "slave" && observers_[static_cast<std::size_t>(node)] && node != sentinel_master_) {
      sentinel_demoted(node, t_us);
    }
  }
}

// A replica the sentinels promoted.
void Topology::sentinel_promoted(int node, std::int64_t t_us) {
  record_promotion(node, sentinel_master_, "sentinels", t_us);
  sentinel_master_ = node;
  publish_routing();
}

// With the old master down what it held and the promoted node lacks is lost now (as a failover fault records
// it); with the old master still up (a split-brain, or SENTINEL FAILOVER) it keeps its data until it is
// re-pointed, and its losses are recorded then (record_rejoin).
void Topology::record_promotion(int node, int old_master, const char* by, std::int64_t t_us) {
  const auto& old_observer = observers_.at(static_cast<std::size_t>(old_master));
  const bool old_up = old_observer != nullptr;
  // The old master is not demoted by the promotion: until the `rejoin` it grants as a second master.
  sink_.add(t_us, "fault", sim::fault_lines::failover_by(node, old_master, by, old_up));
  const std::map<std::string, KeyState> before = old_up ? old_observer->last_state() : state_at_crash_.at(static_cast<std::size_t>(old_master));
  start_observer(node, before, t_us, old_master, !old_up);
  for (int& master : replica_of_) {
    if (master == old_master) master = node;  // re-pointed by the sentinels / the cluster
  }
  replica_of_.at(static_cast<std::size_t>(node)) = -1;
  replica_of_.at(static_cast<std::size_t>(old_master)) = node;  // once they reach it
}

// A master the sentinels re-pointed (REPLICAOF and CLIENT KILL in one transaction, which also closes the
// observer's connections).
void Topology::sentinel_demoted(int node, std::int64_t t_us) {
  record_rejoin(node, sentinel_master_, t_us);
  publish_routing();
}

// Its full resync replaces the old master's data set with the master's.
void Topology::record_rejoin(int node, int master, std::int64_t t_us) {
  auto& observer = observers_.at(static_cast<std::size_t>(node));
  if (!observer) {
    // Restarted after its failover (a cluster master that crashed): what it held was recorded lost at the
    // failover, and it served nothing since.
    sink_.add(t_us, "fault", sim::fault_lines::rejoin(node, master));
    return;
  }
  observer->catch_up();
  const std::map<std::string, KeyState> before = observer->last_state();
  retired_gaps_.add(observer->gaps());
  observer.reset();
  sink_.add(t_us, "fault", sim::fault_lines::rejoin(node, master));
  const auto& kept_by = observers_.at(static_cast<std::size_t>(master));
  const std::map<std::string, KeyState> kept = kept_by ? kept_by->last_state() : std::map<std::string, KeyState>{};
  for (const auto& [key, state] : before) {
    const auto now = kept.find(key);
    if (state.present && (now == kept.end() || !now->second.present || now->second.value != state.value)) record_lost(t_us, node, key, state);
  }
}

}  // namespace lockcheck::redis_backend
