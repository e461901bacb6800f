// The Topology's Redis Cluster crashes (topology.hpp): a master killed with a replica is failed over by the
// cluster itself (after the node timeout, gossip and the replica's delay), which follow_cluster records; the
// old master restarted on its port with its nodes.conf learns that its slots have a newer owner and turns into
// that node's replica (`rejoin`), kept off the clients meanwhile.
#include "topology.hpp"

namespace lockcheck::redis_backend {

void Topology::cluster_node_crashed(int node) {
  if (followed_master_ >= 0 || replica_of_.at(static_cast<std::size_t>(node)) >= 0) return;
  for (const int master : replica_of_) {
    if (master == node) {
      followed_master_ = node;
      return;
    }
  }
}

void Topology::cluster_node_restarting(int node) {
  // Back before its replica was promoted, it is a master again (the cluster will not fail it over now).
  if (node == followed_master_ && followed_successor_ < 0) followed_master_ = -1;
}

bool Topology::held_off_until_rejoin(int node) const {
  return cluster() && node == followed_master_ && followed_successor_ >= 0 && node < static_cast<int>(observers_.size()) &&
         !observers_[static_cast<std::size_t>(node)];
}

}  // namespace lockcheck::redis_backend
