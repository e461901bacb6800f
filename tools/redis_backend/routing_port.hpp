#pragma once
// A worker's Port: a HiredisPort to the ports the run's RoutingTable gives this process, rebuilt when the
// run publishes a new generation (a failover re-pointed a service, a partition cut or healed a link).
// Established connections are dropped with the old HiredisPort, as a client library reconnecting would.
// Thread-safe: a watchdog's renewal thread calls beside the workload; a call keeps the port it started on.
#include <memory>
#include <mutex>
#include <string>

#include "lockcheck/hiredis_port.hpp"
#include "routing_table.hpp"

namespace lockcheck::redis_backend {

class RoutingPort final : public Port {
 public:
  // Every connection it makes is named `client_name` (CLIENT SETNAME), so the node observers can tell which
  // process sent a command (attribution.hpp).
  RoutingPort(const RoutingTable& table, int process, int services, Millis command_timeout, std::string client_name);

  std::size_t node_count() const override { return static_cast<std::size_t>(services_); }
  Task<CallResult> call(std::size_t node, Command command) override;
  // A new routing generation (a failover, a restart on another port) is a new set of connections.
  std::uint64_t connection_epoch(std::size_t node) const override;
  // Sent by the current port's own call_on_connection (no reconnect), and only in the same generation.
  Task<CallResult> call_on_connection(std::size_t node, std::uint64_t epoch, Command command) override;
  Task<std::vector<CallResult>> fan_out(std::vector<NodeCommand> commands) override;
  Task<std::vector<CallResult>> fan_out_until(std::vector<NodeCommand> commands, DecidedPredicate decided) override;
  Task<CallResult> subscribe(std::size_t node, std::string channel) override;
  Task<CallResult> subscribe_shard(std::size_t node, std::string channel) override;
  Task<CallResult> await_message(std::size_t node, std::string channel, Micros timeout) override;

 private:
  std::shared_ptr<HiredisPort> current();

  const RoutingTable& table_;
  int process_;
  int services_;
  Millis command_timeout_;
  std::string client_name_;
  std::uint64_t generation_ = 0;
  mutable std::mutex mutex_;
  std::shared_ptr<HiredisPort> port_;
};

}  // namespace lockcheck::redis_backend
