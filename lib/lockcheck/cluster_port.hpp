#pragma once
// A cluster-aware Port over a Port that reaches every node of one Redis Cluster (node i of `nodes` is the
// cluster node at addresses[i], "host:port" as the cluster announces it). It presents the cluster as one
// node: a command goes to the master serving its keys' hash slot (key_slot.hpp), from a slot map read with
// CLUSTER SLOTS. -MOVED updates the map and retries at the named node; -ASK retries there once after ASKING;
// both within `max_redirects`. A node that cannot be reached (CallStatus::not_sent: the command did not run)
// marks the map stale: it is read again from another node and the command retried, which is how a client
// follows a failover. A command that may have run (CallStatus::unknown) is never retried here.
//
// Refusals that mean nothing ran and that pass with time are waited out on the Clock seam: -TRYAGAIN (a
// multi-key command or script while its slot migrates with keys on both sides; Redis 7.0 answers it until
// SETSLOT NODE) and -CLUSTERDOWN (the node lost its majority, or the slot is unassigned; the map is read
// again first). The same command goes again after a pause doubling from `busy_retry_wait`, at most
// `max_busy_retries` times and `busy_wait_budget` in all; if the refusal persists, and likewise for a
// MOVED/ASK past `max_redirects`, the caller gets CallStatus::not_sent (nothing ran; the detail quotes the
// server's error), so a lock's own retry and backoff apply instead of an error reply it would throw on.
//
// The same code runs in production (over HiredisPort) and in simulation (over the simulator's port).
// Thread-safe when `nodes` is: the slot map has a mutex of its own, never held across an await.
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "lockcheck/clock.hpp"
#include "lockcheck/port.hpp"

namespace lockcheck {

struct ClusterPortOptions {
  std::size_t max_redirects = 5;  // MOVED / ASK hops, and map refreshes after an unreachable node, per call
  std::size_t max_busy_retries = 5;     // TRYAGAIN / CLUSTERDOWN: re-sends per call
  Micros busy_retry_wait{10'000};       // the first pause before a re-send; each next one is twice as long
  Micros busy_wait_budget{250'000};     // all pauses of one call together
};

class ClusterPort final : public Port {
 public:
  // `clock` times the pauses before re-sending a refused command (the process's virtual clock in simulation).
  ClusterPort(Port& nodes, Clock& clock, std::vector<std::string> addresses, ClusterPortOptions options = {});

  std::size_t node_count() const override { return 1; }
  Task<CallResult> call(std::size_t node, Command command) override;
  // The node the last command went to (where a keyless MULTI goes) and its connection's epoch there.
  std::uint64_t connection_epoch(std::size_t node) const override;
  // Only at the epoch's node and connection, and only for a command that routes there: no refresh, no
  // redirect, no re-send (the transaction's MULTI is open there and nowhere else).
  Task<CallResult> call_on_connection(std::size_t node, std::uint64_t epoch, Command command) override;
  // Pub/sub on shard channels (Redis 7.0): subscribe() SSUBSCRIBEs at the node serving the channel name's
  // slot, where an SPUBLISH in that slot (a lock's release script, its channel hash-tagged with the lock key)
  // delivers; messages are awaited there. A failover or slot move ends the subscription (Redis sends
  // sunsubscribe): the waiter's await then times out and it subscribes again, routed by the new map.
  bool shard_channels() const override { return true; }
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
  void mark_stale();
  // A node that did not answer (or refused the connection) may have failed over: read the map again before the
  // next command, starting from the node after it.
  void suspect(std::size_t node);

  Port& nodes_;
  Clock& clock_;
  std::vector<std::string> addresses_;
  ClusterPortOptions options_;
  mutable std::mutex mutex_;
  std::vector<std::int16_t> slot_node_;  // slot -> index into addresses_, -1 unknown
  bool stale_ = true;
  std::size_t last_node_ = 0;
  std::size_t refresh_from_ = 0;
  std::map<std::string, std::size_t> subscribed_at_;  // channel -> node
};

}  // namespace lockcheck
