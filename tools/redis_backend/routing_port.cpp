#include "routing_port.hpp"

namespace lockcheck::redis_backend {

RoutingPort::RoutingPort(const RoutingTable& table, int process, int services, Millis command_timeout)
    : table_(table), process_(process), services_(services), command_timeout_(command_timeout) {}

HiredisPort& RoutingPort::current() {
  if (port_ && table_.generation() == generation_) return *port_;
  std::uint64_t generation = 0;
  const std::vector<int> ports = table_.ports(process_, services_, generation);
  std::vector<ConnectionOptions> nodes;
  for (int port : ports) {
    ConnectionOptions options;
    options.port = port;
    options.connect_timeout = command_timeout_;
    options.command_timeout = command_timeout_;
    nodes.push_back(options);
  }
  port_ = std::make_unique<HiredisPort>(std::move(nodes));
  generation_ = generation;
  return *port_;
}

Task<CallResult> RoutingPort::call(std::size_t node, Command command) {
  co_return co_await current().call(node, std::move(command));
}

Task<std::vector<CallResult>> RoutingPort::fan_out(std::vector<NodeCommand> commands) {
  co_return co_await current().fan_out(std::move(commands));
}

}  // namespace lockcheck::redis_backend
