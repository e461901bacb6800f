#pragma once
// Fixed addresses for a client that cannot follow the routing table (an external lock client: lockcheck
// judge): one loopback front per service, each new connection forwarded to where the table routes this
// process now. A failover kills the old master, which closes the client's connections; the client reconnects
// to its front and reaches the promoted node, as through a virtual IP. Partitions and loss stay where they
// are, on the per-client proxies the table routes to. Production code (a thread polling the table).
//
// On a cluster the nodes name each other by the ports they announce (MOVED, CLUSTER SLOTS, ...), and on a
// [sentinel] the sentinels name the data nodes and each other by the topology's fronts (SENTINEL MASTERS,
// +switch-master, ...): those lead past these fronts. Given those ports, each front rewrites what it carries
// back so that the client only ever learns fronts (address_filter.hpp, with cluster_reply_rewrite.hpp or
// sentinel_reply_rewrite.hpp). A server keeps its front for the whole run, and the front follows the table,
// so a MOVED after a failover or a slot migration, or the master the sentinels name after their failover,
// leads to the right node, on this client's faulted path.
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "link_proxy.hpp"
#include "routing_table.hpp"

namespace lockcheck::redis_backend {

// Who names the servers behind the fronts: which replies name them, and how (reply_addresses.hpp).
enum class ServerNames { cluster, sentinel };

class RoutedFronts {
 public:
  // `named_ports`: on a cluster or a [sentinel], by service, every port the servers may name that service
  // by (empty otherwise: nothing is rewritten).
  RoutedFronts(const RoutingTable& table, int process, int services, const std::vector<std::vector<int>>& named_ports = {},
               ServerNames names = ServerNames::cluster);
  ~RoutedFronts();
  RoutedFronts(const RoutedFronts&) = delete;
  RoutedFronts& operator=(const RoutedFronts&) = delete;

  // The front of each service, in service order.
  std::vector<int> ports() const;

 private:
  void follow();

  const RoutingTable& table_;
  int process_;
  int services_;
  std::uint64_t generation_ = 0;
  std::unique_ptr<LinkProxy> proxy_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace lockcheck::redis_backend
