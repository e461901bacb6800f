#include "lockcheck/client.hpp"

#include <string>

#include "lockcheck/errors.hpp"

namespace lockcheck {
namespace {

std::vector<ConnectionOptions> cluster_nodes_or_throw(const ClusterNodes& cluster) {
  if (cluster.nodes.empty()) throw InvalidArgument("a cluster Client needs at least one node");
  return cluster.nodes;
}

}  // namespace

Client::Client(ConnectionOptions options) : port_({std::move(options)}) { port_.connect(0); }

Client::Client(std::vector<ConnectionOptions> nodes) : port_(std::move(nodes)) {}

Client::Client(ClusterNodes cluster) : port_(cluster_nodes_or_throw(cluster)) {
  std::vector<std::string> addresses;
  for (const ConnectionOptions& node : cluster.nodes) addresses.push_back(node.host + ":" + std::to_string(node.port));
  cluster_ = std::make_unique<ClusterPort>(port_, clock_, std::move(addresses), cluster.routing);
}

}  // namespace lockcheck
