#include "redis/topology/cluster_view.hpp"

namespace lockcheck::mock {
namespace {

Reply redirect(const char* kind, int slot, const ClusterNodeInfo& target) {
  return Reply::error(std::string(kind) + " " + std::to_string(slot) + " " + target.address());
}

// Who serves `slot` for this command from `myself`'s point of view, before any redirect is formed.
enum class Route { here, moved, ask, unserved, try_again };

Route route_slot(const ClusterView& view, int myself, int slot, const Command& command, bool asking, bool readonly,
                 bool is_write, Keyspace& keys) {
  const int owner = view.slot_owner[static_cast<std::size_t>(slot)];
  if (owner < 0) return Route::unserved;
  const auto migrating = view.migrating.find(slot);
  const bool importing = asking && owner != myself && view.importing.count(slot) != 0;
  if ((owner == myself && migrating != view.migrating.end()) || importing) {
    // A slot on the move (Redis 7.0's getNodeByQuery): the keys still here are served here; when all are
    // missing the client is asked to go to the target; a multi-key request with only some of them gets
    // TRYAGAIN, here and at the importing node.
    std::size_t present = 0, missing = 0;
    for (std::size_t index : command_key_indices(command)) ++(keys.find(command[index]) == nullptr ? missing : present);
    if (missing > 0 && (present > 0 || (importing && present + missing > 1))) return Route::try_again;
    if (importing) return Route::here;
    return missing > 0 ? Route::ask : Route::here;
  }
  if (owner == myself) return Route::here;
  const ClusterNodeInfo& me = view.nodes[static_cast<std::size_t>(myself)];
  if (readonly && !is_write && me.master == owner) return Route::here;
  return Route::moved;
}

}  // namespace

std::vector<int> ClusterView::serving_masters() const {
  std::vector<bool> serving(nodes.size(), false);
  for (std::int16_t owner : slot_owner) {
    if (owner >= 0) serving[static_cast<std::size_t>(owner)] = true;
  }
  std::vector<int> masters;
  for (std::size_t i = 0; i < serving.size(); ++i) {
    if (serving[i]) masters.push_back(static_cast<int>(i));
  }
  return masters;
}

std::vector<std::pair<int, int>> ClusterView::ranges_of(int node) const {
  std::vector<std::pair<int, int>> ranges;
  for (int slot = 0; slot < kClusterSlots; ++slot) {
    if (slot_owner[static_cast<std::size_t>(slot)] != node) continue;
    if (!ranges.empty() && ranges.back().second == slot - 1) {
      ranges.back().second = slot;
    } else {
      ranges.emplace_back(slot, slot);
    }
  }
  return ranges;
}

std::optional<Reply> cluster_redirect(const ClusterView& view, int myself, const Command& command, bool asking,
                                      bool readonly, bool is_write, Keyspace& keys) {
  const std::optional<int> slot = command_slot(command);
  if (slot == kCrossSlot) return Reply::error("CROSSSLOT Keys in request don't hash to the same slot");
  if (!slot) return std::nullopt;  // keyless commands run anywhere, even while the cluster is down
  if (!view.state_ok) return Reply::error("CLUSTERDOWN The cluster is down");
  switch (route_slot(view, myself, *slot, command, asking, readonly, is_write, keys)) {
    case Route::here:
      return std::nullopt;
    case Route::unserved:
      return Reply::error("CLUSTERDOWN Hash slot not served");
    case Route::try_again:
      return Reply::error("TRYAGAIN Multiple keys request during rehashing of slot");
    case Route::ask:
      return redirect("ASK", *slot, view.nodes[static_cast<std::size_t>(view.migrating.at(*slot))]);
    case Route::moved:
      break;
  }
  return redirect("MOVED", *slot, view.nodes[static_cast<std::size_t>(view.slot_owner[static_cast<std::size_t>(*slot)])]);
}

std::optional<Reply> cluster_script_check(const ClusterView& view, int myself, const Command& command, bool asking,
                                          Keyspace& keys) {
  const std::optional<int> slot = command_slot(command);
  if (!slot) return std::nullopt;
  if (!view.state_ok) return Reply::error("ERR Script attempted to execute a command while the cluster is down");
  // 7.0 lets a script touch any slot this node serves, declared or not (checked on redis-server 7.0.15).
  if (slot == kCrossSlot || route_slot(view, myself, *slot, command, asking, false, true, keys) != Route::here) {
    return Reply::error("ERR Script attempted to access a non local key in a cluster node");
  }
  return std::nullopt;
}

}  // namespace lockcheck::mock
