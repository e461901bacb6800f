#include "lockcheck/client.hpp"

#include <string>

#include "lockcheck/errors.hpp"

namespace lockcheck {
namespace {

std::vector<ConnectionOptions> cluster_nodes_or_throw(const ClusterNodes& cluster) {
  if (cluster.nodes.empty()) throw InvalidArgument("a cluster Client needs at least one node");
  return cluster.nodes;
}

// The data nodes, then the sentinels: the SentinelPort's nodes in that order.
std::vector<ConnectionOptions> sentinel_nodes_or_throw(const SentinelNodes& sentinel) {
  if (sentinel.data_nodes.empty()) throw InvalidArgument("a Sentinel Client needs at least one data node");
  if (sentinel.sentinels.empty()) throw InvalidArgument("a Sentinel Client needs at least one sentinel");
  if (sentinel.master_name.empty()) throw InvalidArgument("a Sentinel Client needs the master's name");
  std::vector<ConnectionOptions> nodes = sentinel.data_nodes;
  nodes.insert(nodes.end(), sentinel.sentinels.begin(), sentinel.sentinels.end());
  return nodes;
}

std::vector<std::string> addresses_of(const std::vector<ConnectionOptions>& nodes) {
  std::vector<std::string> addresses;
  for (const ConnectionOptions& node : nodes) addresses.push_back(node.host + ":" + std::to_string(node.port));
  return addresses;
}

}  // namespace

Client::Client(ConnectionOptions options) : port_({std::move(options)}) { port_.connect(0); }

Client::Client(std::vector<ConnectionOptions> nodes) : port_(std::move(nodes)) {}

Client::Client(ClusterNodes cluster) : port_(cluster_nodes_or_throw(cluster)) {
  routed_ = std::make_unique<ClusterPort>(port_, clock_, addresses_of(cluster.nodes), cluster.routing);
}

Client::Client(SentinelNodes sentinel) : port_(sentinel_nodes_or_throw(sentinel)) {
  // port_'s nodes, in its order: the data nodes, then the sentinels.
  std::vector<std::string> addresses = addresses_of(sentinel.data_nodes);
  std::vector<std::size_t> sentinels;
  for (const std::string& address : addresses_of(sentinel.sentinels)) {
    sentinels.push_back(addresses.size());
    addresses.push_back(address);
  }
  routed_ = std::make_unique<SentinelPort>(port_, std::move(addresses), std::move(sentinels), std::move(sentinel.master_name),
                                           sentinel.routing);
}

}  // namespace lockcheck
