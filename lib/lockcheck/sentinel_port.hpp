#pragma once
// A sentinel-aware Port over a Port that reaches the data nodes and the sentinels of one Redis Sentinel
// deployment. It presents the deployment as one node: the master that the sentinels name. Node i of `nodes`
// is the server at addresses[i] ("host:port" as the sentinels name it); `sentinels` lists which of them are
// sentinels. Discovery follows Redis's client guidelines: ask each sentinel in turn
// SENTINEL get-master-addr-by-name, then ask that node ROLE and take it only if it says master (a sentinel
// on the wrong side of a partition may name a demoted node).
//
// The master is looked up again after a command that could not be sent (the node is gone: nothing ran, so
// the command is retried at the new master), after -READONLY (the node was demoted to a replica) and after
// -LOADING (a node still loading its data), both of which refuse without running anything; each call makes
// at most `max_rediscoveries` lookups, and stops at the first that finds no master answering (its caller's retry
// and backoff apply), so a call waits on an unreachable master's timeout about once, not once per sentinel and
// lookup. A command that may have run (CallStatus::unknown) is never retried here, but the next command looks
// the master up first.
//
// The same code runs in production (over HiredisPort) and in simulation (over the simulator's port).
// Thread-safe when `nodes` is: the known master has a mutex of its own, never held across an await.
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "lockcheck/port.hpp"

namespace lockcheck {

struct SentinelPortOptions {
  std::size_t max_rediscoveries = 3;  // master lookups per call after the first
};

class SentinelPort final : public Port {
 public:
  SentinelPort(Port& nodes, std::vector<std::string> addresses, std::vector<std::size_t> sentinels,
               std::string master_name, SentinelPortOptions options = {});

  std::size_t node_count() const override { return 1; }
  Task<CallResult> call(std::size_t node, Command command) override;
  // The node taken for the master and its connection's epoch there; a new master is a new epoch.
  std::uint64_t connection_epoch(std::size_t node) const override;
  // Only at the master of the epoch, on its connection: no lookup, no re-send at a new master (the
  // transaction's MULTI is open there and nowhere else).
  Task<CallResult> call_on_connection(std::size_t node, std::uint64_t epoch, Command command) override;
  // Pub/sub runs at the master; a channel's messages are awaited where it was subscribed.
  Task<CallResult> subscribe(std::size_t node, std::string channel) override;
  Task<CallResult> await_message(std::size_t node, std::string channel, Micros timeout) override;

  // The node the port currently takes for the master (for tests and reports); nullopt when unknown.
  std::optional<std::size_t> known_master();

 private:
  // Asks the sentinels, from the one that answered last; true when a node that says it is master was found.
  Task<bool> discover();
  // The master `reply` (to get-master-addr-by-name) names, as an index into addresses_.
  std::optional<std::size_t> node_named_by(const Reply& reply) const;
  void forget_master();

  Port& nodes_;
  std::vector<std::string> addresses_;
  std::vector<std::size_t> sentinels_;
  std::string master_name_;
  SentinelPortOptions options_;
  mutable std::mutex mutex_;
  std::optional<std::size_t> master_;
  std::size_t ask_first_ = 0;  // index into sentinels_
  std::optional<std::size_t> subscribed_at_;
};

// Whether `reply` means the node refused without running the command because it is not (or not yet) a
// usable master: -READONLY (a replica), -LOADING (loading its data set), -MASTERDOWN (a replica whose link
// to its master is down, with replica-serve-stale-data no), -NOREPLICAS (a master short of good replicas under
// min-replicas-to-write: the old master of a split-brain).
bool refused_as_not_master(const Reply& reply);

}  // namespace lockcheck
