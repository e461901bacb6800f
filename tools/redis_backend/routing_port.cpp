#include "routing_port.hpp"

namespace lockcheck::redis_backend {

RoutingPort::RoutingPort(const RoutingTable& table, int process, int services, Millis command_timeout,
                         std::string client_name)
    : table_(table), process_(process), services_(services), command_timeout_(command_timeout),
      client_name_(std::move(client_name)) {}

std::shared_ptr<HiredisPort> RoutingPort::current() {
  std::lock_guard lock(mutex_);
  if (port_ && table_.generation() == generation_) return port_;
  std::uint64_t generation = 0;
  const std::vector<int> ports = table_.ports(process_, services_, generation);
  std::vector<ConnectionOptions> nodes;
  for (int port : ports) {
    ConnectionOptions options;
    options.port = port;
    options.connect_timeout = command_timeout_;
    options.command_timeout = command_timeout_;
    options.client_name = client_name_;
    nodes.push_back(options);
  }
  port_ = std::make_shared<HiredisPort>(std::move(nodes));
  generation_ = generation;
  return port_;
}

std::uint64_t RoutingPort::connection_epoch(std::size_t node) const {
  std::shared_ptr<HiredisPort> port;
  std::uint64_t generation = 0;
  {
    std::lock_guard lock(mutex_);
    port = port_;
    generation = generation_;
  }
  return (generation << 32) ^ (port ? port->connection_epoch(node) : 0);
}

Task<CallResult> RoutingPort::call_on_connection(std::size_t node, std::uint64_t epoch, Command command) {
  std::shared_ptr<HiredisPort> port;
  std::uint64_t generation = 0;
  {
    std::lock_guard lock(mutex_);
    port = port_;
    generation = generation_;
  }
  if (!port || table_.generation() != generation || (epoch >> 32) != generation) {
    co_return CallResult::failed(CallStatus::not_sent, "the connection changed");
  }
  co_return co_await port->call_on_connection(node, epoch ^ (generation << 32), std::move(command));
}

Task<CallResult> RoutingPort::call(std::size_t node, Command command) {
  const std::shared_ptr<HiredisPort> port = current();
  co_return co_await port->call(node, std::move(command));
}

Task<std::vector<CallResult>> RoutingPort::fan_out(std::vector<NodeCommand> commands) {
  const std::shared_ptr<HiredisPort> port = current();
  co_return co_await port->fan_out(std::move(commands));
}

Task<std::vector<CallResult>> RoutingPort::fan_out_until(std::vector<NodeCommand> commands, DecidedPredicate decided) {
  const std::shared_ptr<HiredisPort> port = current();
  co_return co_await port->fan_out_until(std::move(commands), std::move(decided));
}

// A new generation means new connections: subscriptions made on the old port are gone, and the waiter's
// next await_message says "not subscribed", so it subscribes again.
Task<CallResult> RoutingPort::subscribe(std::size_t node, std::string channel) {
  const std::shared_ptr<HiredisPort> port = current();
  co_return co_await port->subscribe(node, std::move(channel));
}

Task<CallResult> RoutingPort::subscribe_shard(std::size_t node, std::string channel) {
  const std::shared_ptr<HiredisPort> port = current();
  co_return co_await port->subscribe_shard(node, std::move(channel));
}

Task<CallResult> RoutingPort::await_message(std::size_t node, std::string channel, Micros timeout) {
  const std::shared_ptr<HiredisPort> port = current();
  co_return co_await port->await_message(node, std::move(channel), timeout);
}

}  // namespace lockcheck::redis_backend
