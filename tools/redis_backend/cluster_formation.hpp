#pragma once
// Forms a real Redis Cluster from running cluster-enabled redis-servers with plain commands, as
// redis-cli --cluster create does: every master takes its config epoch and its share of the 16384 hash slots
// (CLUSTER ADDSLOTSRANGE, the split sim::cluster_shard_of_slot gives, so "lock" lands on the same shard as in
// the simulator), every pair of nodes meets (CLUSTER MEET over the bus port), each replica follows its
// master (CLUSTER REPLICATE) once it knows it; then waits, bounded, until every node knows every other and
// reports cluster_state:ok.
//
// Each node announces `announce_port` (cluster-announce-port) in MOVED, ASK and CLUSTER SLOTS: the run puts a
// LinkProxy there, the one its replicas replicate through (so replication lags as the scenario says); clients
// never connect to it, they map the announced addresses to their own links (ClusterPort's address list).
#include <string>
#include <vector>

#include "model/run_config.hpp"

namespace lockcheck::redis_backend {

struct ClusterMember {
  int port = 0;           // where the server listens
  int bus_port = 0;       // its cluster bus as peers dial it (the bus proxy it announces)
  int announce_port = 0;  // what it tells clients and replicas
  int replica_of = -1;    // the master's index among the members, -1 for a master
};

// Throws std::runtime_error when a command fails or the cluster is not ok within about 10 s.
void form_cluster(const std::vector<ClusterMember>& members, const sim::ClusterConfig& config);

// CLUSTER MYID of the node listening on `port`.
std::string cluster_node_id(int port);

// The first and last slot of `shard` at the start (sim::cluster_shard_of_slot's contiguous split).
std::pair<int, int> initial_slot_range(const sim::ClusterConfig& config, int shard);

}  // namespace lockcheck::redis_backend
