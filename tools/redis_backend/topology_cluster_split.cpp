// The Topology's Redis Cluster split-brain (topology.hpp): a shard master cut off from the cluster bus both
// ways, its replicas and all clients but one; then following what the cluster does by itself: the majority
// promotes the replica after the node timeout, and after the heal the old master rejoins as its replica.
// follow_cluster follows a crashed master the same way (topology_cluster_crash.cpp).
#include "server_process.hpp"
#include "topology.hpp"

namespace lockcheck::redis_backend {

bool Topology::cluster_split_brain(int master, int process) {
  if (!cluster() || followed_master_ >= 0 || replica_of_.at(static_cast<std::size_t>(master)) >= 0 ||
      !observers_.at(static_cast<std::size_t>(master))) {
    return false;
  }
  // Inbound: every peer's bus link to the master passes its proxy. Outbound: its links to every peer come
  // from its own source address, which their proxies drop.
  bus_links_.at(static_cast<std::size_t>(master))->set_partitioned(true);
  for (std::size_t node = 0; node < bus_links_.size(); ++node) {
    if (static_cast<int>(node) != master) bus_links_[node]->set_partitioned_sources({cluster_source_address(master)});
  }
  announce_links_.at(static_cast<std::size_t>(master))->set_partitioned(true);  // its replicas' stream
  for (auto& [ends, proxy] : links_) {
    const bool to_master = ends.second == master;
    if ((ends.first == process) != to_master) proxy->set_partitioned(true);
  }
  followed_master_ = master;
  return true;
}

void Topology::follow_cluster(std::int64_t t_us) {
  if (followed_master_ < 0) return;
  auto role = [this](int node) {
    try {
      return run_command(servers_.at(static_cast<std::size_t>(node))->port(), {"ROLE"}).elements.at(0).text;
    } catch (const std::exception&) {
      return std::string();  // loading, or busy: look again next time
    }
  };
  if (followed_successor_ < 0) {
    for (int node = 0; node < static_cast<int>(replica_of_.size()); ++node) {
      if (replica_of_[static_cast<std::size_t>(node)] != followed_master_ || role(node) != "master") continue;
      record_promotion(node, followed_master_, "cluster", t_us);
      if (lock_slot_owner_ == followed_master_) lock_slot_owner_ = node;
      followed_successor_ = node;
      return;
    }
    return;
  }
  if (role(followed_master_) != "slave") return;
  record_rejoin(followed_master_, followed_successor_, t_us);
  followed_master_ = -1;
  followed_successor_ = -1;
  publish_routing();  // a restarted old master was held off until now
}

}  // namespace lockcheck::redis_backend
