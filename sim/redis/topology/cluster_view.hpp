#pragma once
// What one cluster node believes about the cluster: its nodes, which master serves each hash slot, slots
// being migrated, and whether it considers the cluster up. The simulator owns the truth and hands each node
// its own (possibly stale) view, so a node cut off from the majority keeps answering from an old one.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lockcheck/key_slot.hpp"
#include "redis/keyspace/keyspace.hpp"
#include "lockcheck/reply.hpp"

namespace lockcheck::mock {

struct ClusterNodeInfo {
  std::string id;      // 40 hex characters, as CLUSTER MYID prints it
  std::string host;    // as the node announces itself
  int port = 0;
  int master = -1;     // index of the master this node replicates; -1 for a master
  bool failed = false; // flagged fail (shown in CLUSTER NODES; never chosen for redirects)
  std::int64_t config_epoch = 0;

  std::string address() const { return host + ":" + std::to_string(port); }
};

struct ClusterView {
  std::vector<ClusterNodeInfo> nodes;
  std::array<std::int16_t, kClusterSlots> slot_owner{};  // node index serving the slot; -1 unassigned
  std::map<int, int> migrating;  // slot -> node it is moving to (meaningful on the slot's owner)
  std::map<int, int> importing;  // slot -> node it is moving from (meaningful on the importing node)
  bool state_ok = true;          // false: this node refuses commands with CLUSTERDOWN
  std::int64_t current_epoch = 0;

  ClusterView() { slot_owner.fill(-1); }
  // Masters serving at least one slot, in node order.
  std::vector<int> serving_masters() const;
  // Contiguous slot ranges (first, last) served by `node`.
  std::vector<std::pair<int, int>> ranges_of(int node) const;
};

// What a node does with a client command in cluster mode (Redis 7.0's getNodeByQuery): nullopt = run it
// here; otherwise the redirect or error to answer. `asking` is the client's ASKING flag; `key_exists` says
// ASKING flag; `readonly` its READONLY flag (reads on a replica of the slot's master run there).
std::optional<Reply> cluster_redirect(const ClusterView& view, int myself, const Command& command, bool asking,
                                      bool readonly, bool is_write, Keyspace& keys);

// The error a script's redis.call gets in cluster mode (nullopt: allowed): a key this node does not serve
// (including one missing from a slot being migrated away) or several keys of different slots in one call.
std::optional<Reply> cluster_script_check(const ClusterView& view, int myself, const Command& command, bool asking,
                                          Keyspace& keys);

}  // namespace lockcheck::mock
