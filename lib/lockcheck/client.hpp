#pragma once
// A production client: the hiredis port, the system clock and the OS CSPRNG, bundled for the locks.
//
// Thread safety: a Client may be shared by any number of threads and Mutexes. Its Redis calls are
// serialised (one request in flight per Client), so a thread waits behind another's call for at most that
// call's command timeout; give threads that must not wait on each other a Client each. Tokens come from
// getrandom(2) on every acquire, never from a seeded or shared PRNG.
// Every call is bounded by ConnectionOptions::connect_timeout and command_timeout: a paused, dead or slow
// server makes calls fail or report an unknown outcome, never block forever (lib/test/broken_connection_redis_test.cpp).
#include <memory>
#include <string>
#include <vector>

#include "lockcheck/clock.hpp"
#include "lockcheck/cluster_port.hpp"
#include "lockcheck/entropy.hpp"
#include "lockcheck/hiredis_port.hpp"
#include "lockcheck/sentinel_port.hpp"

namespace lockcheck {

// Every node of one Redis Cluster, masters and replicas, each as the cluster announces it (CLUSTER SLOTS names
// nodes by that host and port). The locks then see the cluster as one node: each command goes to the master of
// its key's hash slot, following MOVED, ASK and failovers (ClusterPort). A node the cluster gains later is not
// followed: list every node.
struct ClusterNodes {
  std::vector<ConnectionOptions> nodes;
  ClusterPortOptions routing{};
};

// A Redis Sentinel deployment: every data node (the master and its replicas) and every sentinel, each as the
// sentinels name it, and the name the sentinels monitor the master by. The locks then see the deployment as one
// node, the master the sentinels name, looked up again after a failover (SentinelPort). A data node the
// deployment gains later is not followed: list every one.
struct SentinelNodes {
  std::vector<ConnectionOptions> data_nodes;
  std::vector<ConnectionOptions> sentinels;
  std::string master_name;
  SentinelPortOptions routing{};
};

class Client {
 public:
  // Connects to one Redis now, so a bad host, port or password fails here with a clear ConnectionError.
  explicit Client(ConnectionOptions options);
  // Several independent nodes (for Redlock); connections are made on first use, as nodes may be down.
  explicit Client(std::vector<ConnectionOptions> nodes);
  // One Redis Cluster; connections are made on first use. Throws InvalidArgument for an empty node list.
  explicit Client(ClusterNodes cluster);
  // One Sentinel deployment; connections are made on first use. Throws InvalidArgument when a list or the master's
  // name is empty.
  explicit Client(SentinelNodes sentinel);

  Port& port() { return routed_ ? *routed_ : static_cast<Port&>(port_); }
  Clock& clock() { return clock_; }
  Entropy& entropy() { return entropy_; }

 private:
  HiredisPort port_;
  SystemClock clock_;
  OsEntropy entropy_;
  std::unique_ptr<Port> routed_;  // a cluster's ClusterPort or a deployment's SentinelPort, over port_'s connections
};

}  // namespace lockcheck
