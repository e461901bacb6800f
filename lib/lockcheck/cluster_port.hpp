#pragma once
// A cluster-aware Port over a Port that reaches every node of one Redis Cluster (node i of `nodes` is the
// cluster node at addresses[i], "host:port" as the cluster announces it). It presents the cluster as one
// node: a command goes to the master serving its keys' hash slot (key_slot.hpp), from a slot map read with
// CLUSTER SLOTS. -MOVED updates the map and retries at the named node; -ASK retries there once after ASKING;
// both within `max_redirects`; so is a -TRYAGAIN (a multi-key command caught halfway through a migration). A node that cannot be reached (CallStatus::not_sent: the command did not run)
// marks the map stale: it is read again from another node and the command retried, which is how a client
// follows a failover. A command that may have run (CallStatus::unknown) is never retried here.
//
// The same code runs in production (over HiredisPort) and in simulation (over the simulator's port).
// Thread-safe when `nodes` is: the slot map has a mutex of its own, never held across an await.
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "lockcheck/port.hpp"

namespace lockcheck {

struct ClusterPortOptions {
  std::size_t max_redirects = 5;  // MOVED / ASK hops, and map refreshes after an unreachable node, per call
};

class ClusterPort final : public Port {
 public:
  ClusterPort(Port& nodes, std::vector<std::string> addresses, ClusterPortOptions options = {});

  std::size_t node_count() const override { return 1; }
  Task<CallResult> call(std::size_t node, Command command) override;
  // Pub/sub: PUBLISH reaches every node of a cluster, so a channel is subscribed at the node serving the
  // channel name's slot, and its messages are awaited there.
  Task<CallResult> subscribe(std::size_t node, std::string channel) override;
  Task<CallResult> await_message(std::size_t node, std::string channel, Micros timeout) override;

  // Where the map currently sends `slot` (for tests and reports); nullopt when unknown.
  std::optional<std::size_t> node_for_slot(int slot);

 private:
  struct Redirect {
    bool moved = false;  // MOVED (the slot has a new owner) or ASK (one command, during a migration)
    int slot = 0;
    std::size_t node = 0;
  };
  // Reads CLUSTER SLOTS from the first node that answers, starting with the last one that did.
  Task<bool> refresh();
  bool install_slot_map(const Reply& slots);
  std::optional<Redirect> redirect_of(const Reply& reply) const;
  std::optional<std::size_t> index_of(const std::string& address) const;
  // The node to send a command for `slot` to (keyless commands: the node the last command went to).
  std::size_t route(std::optional<int> slot);
  bool stale();

  Port& nodes_;
  std::vector<std::string> addresses_;
  ClusterPortOptions options_;
  std::mutex mutex_;
  std::vector<std::int16_t> slot_node_;  // slot -> index into addresses_, -1 unknown
  bool stale_ = true;
  std::size_t last_node_ = 0;
  std::size_t refresh_from_ = 0;
  std::map<std::string, std::size_t> subscribed_at_;  // channel -> node
};

}  // namespace lockcheck
