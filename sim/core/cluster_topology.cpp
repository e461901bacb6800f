#include "core/cluster_topology.hpp"

#include <fmt/format.h>

#include "core/sim_node.hpp"
#include "lockcheck/assert.hpp"
#include "lockcheck/sha1.hpp"
#include "redis/server/node.hpp"
#include "redis/topology/cluster_view.hpp"

namespace lockcheck::sim {
namespace {

constexpr int kFirstPort = 30001;  // as Redis's utils/create-cluster numbers its nodes

}  // namespace

int ClusterTopology::master_of(int node) const { return view_->nodes[static_cast<std::size_t>(node)].master; }

int ClusterTopology::owner_of(int slot) const { return view_->slot_owner[static_cast<std::size_t>(slot)]; }

ClusterTopology::ClusterTopology(const ClusterConfig& config, std::vector<std::unique_ptr<SimNode>>& nodes) : nodes_(nodes) {
  auto view = std::make_shared<mock::ClusterView>();
  for (const auto& node : nodes_) {
    const int id = node->id();
    addresses_.push_back(fmt::format("127.0.0.1:{}", kFirstPort + id));
    view->nodes.push_back(mock::ClusterNodeInfo{sha1_hex(fmt::format("lockcheck cluster node {}", id)), "127.0.0.1",
                                                kFirstPort + id, node->replica_of(), false, 0});
  }
  const int shards = config.shards;
  LOCKCHECK_ASSERT(shards > 0 && static_cast<std::size_t>(shards) <= nodes_.size());
  for (int slot = 0; slot < kClusterSlots; ++slot) {
    const int shard = cluster_shard_of_slot(config, slot);
    LOCKCHECK_ASSERT(shard >= 0 && shard < shards);  // every slot is served from the start, by a shard's master
    view->slot_owner[static_cast<std::size_t>(slot)] = static_cast<std::int16_t>(shard);
  }
  for (int shard = 0; shard < shards; ++shard) {
    // Node k is shard k's master (cluster_nodes): slot owners are node ids.
    LOCKCHECK_ASSERT(view->nodes[static_cast<std::size_t>(shard)].master < 0);
    view->nodes[static_cast<std::size_t>(shard)].config_epoch = shard + 1;
  }
  view->current_epoch = shards;
  view_ = std::move(view);
  share_view();
  for (auto& node : nodes_) {
    node->mock().set_publish_bus([this, from = node->id()](const std::string& channel, const std::string& message) {
      for (auto& other : nodes_) {
        if (other->id() != from && other->up()) other->mock().deliver_published(channel, message);
      }
    });
  }
}

void ClusterTopology::share_view() {
  for (auto& node : nodes_) {
    const int id = node->id();
    // An isolated old master was failed over: restarted, it is no master, so it never waits as one.
    LOCKCHECK_ASSERT(!(isolated(id) && starting_.count(id) > 0));
    if (isolated(id)) continue;
    if (starting_.count(id) == 0) {
      node->mock().set_cluster_view(view_, id);
      continue;
    }
    auto down = std::make_shared<mock::ClusterView>(*view_);
    down->state_ok = false;
    node->mock().set_cluster_view(std::move(down), id);
  }
}

void ClusterTopology::hold_down_after_start(int node) {
  LOCKCHECK_ASSERT(master_of(node) < 0);  // only a master waits (a replica serves no write anyway)
  starting_.insert(node);
  share_view();
}

void ClusterTopology::writable(int node) {
  if (starting_.erase(node) > 0) share_view();
}

void ClusterTopology::rejoin(int node) {
  isolated_.erase(node);
  // Reachable again as a replica, its fail flag is cleared (as Redis clears a replica's FAIL).
  auto view = std::make_shared<mock::ClusterView>(*view_);
  view->nodes[static_cast<std::size_t>(node)].failed = false;
  view_ = std::move(view);
  share_view();
}

Port& ClusterTopology::make_port(Port& nodes, Clock& clock) {
  ports_.push_back(std::make_unique<ClusterPort>(nodes, clock, addresses_));
  return *ports_.back();
}

void ClusterTopology::failover(int old_master, int promoted, bool old_master_isolated) {
  // The promoted node is a replica of the old master, which the cluster takes for a master: a replica never
  // follows another replica, so no failover leaves a chain behind.
  LOCKCHECK_ASSERT(master_of(old_master) < 0 && master_of(promoted) == old_master);
  // A master failed over within its writable delay waits no more: it is no master of the cluster now.
  starting_.erase(old_master);
  if (old_master_isolated) {
    auto down = std::make_shared<mock::ClusterView>(*view_);
    down->state_ok = false;
    nodes_[static_cast<std::size_t>(old_master)]->mock().set_cluster_view(std::move(down), old_master);
    isolated_.insert(old_master);
  }
  auto view = std::make_shared<mock::ClusterView>(*view_);
  for (auto& owner : view->slot_owner) {
    if (owner == old_master) owner = static_cast<std::int16_t>(promoted);
  }
  for (auto& info : view->nodes) {
    if (info.master == old_master) info.master = promoted;
  }
  auto& was_master = view->nodes[static_cast<std::size_t>(old_master)];
  was_master.master = promoted;
  was_master.failed = true;
  auto& now_master = view->nodes[static_cast<std::size_t>(promoted)];
  now_master.master = -1;
  now_master.config_epoch = ++view->current_epoch;
  view_ = std::move(view);
  share_view();
}

bool ClusterTopology::migrating(int slot) const { return view_->migrating.count(slot) > 0; }

void ClusterTopology::begin_migration(int slot, int target) {
  auto view = std::make_shared<mock::ClusterView>(*view_);
  view->migrating[slot] = target;
  view->importing[slot] = owner_of(slot);
  view_ = std::move(view);
  share_view();
}

bool ClusterTopology::move_keys(int slot, int& from, int& to) {
  auto it = view_->migrating.find(slot);
  if (it == view_->migrating.end()) return false;
  from = owner_of(slot);
  to = it->second;
  nodes_[static_cast<std::size_t>(from)]->migrate_slot_to(slot, *nodes_[static_cast<std::size_t>(to)]);
  return true;
}

bool ClusterTopology::finish_migration(int slot) {
  auto it = view_->migrating.find(slot);
  if (it == view_->migrating.end()) return false;
  // SETSLOT IMPORTING on the target came with MIGRATING on the owner (begin_migration), and ends with it.
  LOCKCHECK_ASSERT(view_->importing.count(slot) == 1);
  auto view = std::make_shared<mock::ClusterView>(*view_);
  const int target = it->second;
  view->slot_owner[static_cast<std::size_t>(slot)] = static_cast<std::int16_t>(target);
  view->migrating.erase(slot);
  view->importing.erase(slot);
  view->nodes[static_cast<std::size_t>(target)].config_epoch = ++view->current_epoch;
  view_ = std::move(view);
  share_view();
  return true;
}

Json ClusterTopology::meta() const {
  Json shards = Json::array();
  for (int master : view_->serving_masters()) {
    Json slots = Json::array();
    for (const auto& [first, last] : view_->ranges_of(master)) slots.push_back(Json::array({first, last}));
    shards.push_back(Json{{"node", master}, {"slots", std::move(slots)}});
  }
  return shards;
}

}  // namespace lockcheck::sim
