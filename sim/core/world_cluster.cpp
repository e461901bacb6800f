// Cluster faults: migration of the lock's slot while clients use it.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "core/world.hpp"
#include "lockcheck/key_slot.hpp"
#include "model/fault_lines.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::sim {
namespace {

constexpr std::int64_t kMigrateAfterUs = 1000;  // SETSLOT MIGRATING/IMPORTING, then MIGRATE 1 ms later

}  // namespace

void World::apply_slot_migration(const FaultSpec& fault, FaultLine& line) {
  if (!cluster_) throw std::invalid_argument("fault 'slot_migration' needs a [cluster]");
  const int slot = key_hash_slot(config_.workload.key);
  const int from = cluster_->owner_of(slot);
  const int to = fault.node;
  if (from == to || node(to).replica_of() >= 0 || !node(to).up() || !node(from).up()) return;
  // An open slot is not resharded again (redis-cli --cluster asks to fix it first): a second MIGRATING would
  // strand the keys the first one already moved in a slot their node never comes to own.
  if (cluster_->migrating(slot)) return;
  line.write(Json{{"from", from}, {"slot", slot}});
  cluster_->begin_migration(slot, to);
  // The keys move at once, as redis-cli's MIGRATE loop does (clients asking the old owner for them then get
  // -ASK); at the end the slot is the target's (-MOVED).
  scheduler_.after(std::min<std::int64_t>(kMigrateAfterUs, fault.duration_us), [this, slot] {
    int source = -1, target = -1;
    if (!cluster_->move_keys(slot, source, target)) return;
    if (node(source).up()) replication_.replicate(node(source));
    if (node(target).up()) replication_.replicate(node(target));
  });
  scheduler_.after(fault.duration_us, [this, slot, to] {
    if (cluster_->finish_migration(slot)) write_fault_line(fault_lines::slot_migrated(to, slot));
  });
}

void World::apply_split_brain(const FaultSpec& fault, FaultLine& line) {
  if (!cluster_) throw std::invalid_argument("fault 'split_brain' needs a [cluster]");
  const int master = fault.node;
  int replica = -1;
  for (const auto& other : nodes_) {
    if (other->replica_of() == master && other->up() && replica < 0) replica = other->id();
  }
  if (replica < 0 || !node(master).up() || cluster_->isolated(master)) return;
  line.write();
  for (const auto& client : clients_) {
    if (client->id() != fault.process) network_.cut_link(client->id(), master);
  }
  for (const auto& other : nodes_) {
    if (other->id() == master) continue;
    network_.cut_link(fault.process, other->id());
    if (other->replica_of() == master) replication_.cut(other->id());
  }
  scheduler_.after(config_.cluster.node_timeout_us, [this, master, replica] {
    // The majority marks the master failed and elects its replica; the master, unable to reach a majority
    // for as long, stops serving (CLUSTERDOWN) but keeps its data and still believes it is a master.
    if (!node(replica).up() || node(replica).replica_of() != master) return;
    // Alive, it keeps the grants it made on its side (and its role) until it rejoins: as on real Redis
    // (topology_cluster_split.cpp), the checkers judge them against the promoted node's as two masters.
    write_fault_line(fault_lines::failover_by(replica, master, "cluster", node(master).up()));
    node(replica).promote();
    replication_.restore(replica);
    for (auto& other : nodes_) {
      if (other->replica_of() == master && other->id() != replica) other->follow(replica);
    }
    cluster_->failover(master, replica, true);
  });
}

void World::watch_cluster_master(int master) {
  if (node(master).replica_of() >= 0 || cluster_->master_of(master) >= 0) return;
  int replica = -1;
  for (const auto& other : nodes_) {
    if (other->replica_of() == master && other->up() && replica < 0) replica = other->id();
  }
  if (replica < 0) return;  // a shard without a live replica stays down until the master restarts
  scheduler_.after(config_.cluster.node_timeout_us, [this, master, replica] {
    // Restarted within the node timeout it is a master again, and nothing fails over.
    if (node(master).up() || !node(replica).up() || node(replica).replica_of() != master) return;
    write_fault_line(fault_lines::failover_by(replica, master, "cluster", false));
    node(replica).promote();
    for (auto& other : nodes_) {
      if (other->replica_of() == master && other->id() != replica) other->follow(replica);
    }
    cluster_->failover(master, replica);
    node(replica).record_losses(node(master).data_at_crash(), master);
  });
}

bool World::restart_failed_cluster_master(int id, RestartMode mode) {
  SimNode& old_master = node(id);
  const int promoted = cluster_->master_of(id);
  if (old_master.replica_of() >= 0 || promoted < 0 || cluster_->isolated(id)) return false;
  old_master.restart(mode, false);
  write_fault_line(fault_lines::rejoin(id, promoted));
  old_master.follow(promoted);
  old_master.mock().restore(node(promoted).mock().snapshot());
  cluster_->rejoin(id);
  return true;
}

void World::heal_split_brain() {
  for (auto& old_master : nodes_) {
    const int id = old_master->id();
    if (!cluster_->isolated(id)) continue;
    // The old master learns the newer epoch and becomes a replica of the node that replaced it; the full
    // resync replaces its data, so whatever it accepted on its own is gone.
    const int promoted = cluster_->master_of(id);
    cluster_->rejoin(id);
    if (promoted < 0 || !old_master->up()) continue;
    write_fault_line(fault_lines::rejoin(id, promoted));
    const mock::Dataset before = old_master->mock().snapshot();
    old_master->follow(promoted);
    old_master->mock().restore(node(promoted).mock().snapshot());
    old_master->record_losses(before, id);
  }
}

}  // namespace lockcheck::sim
