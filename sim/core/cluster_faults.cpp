// Cluster faults: migration of the lock's slot while clients use it, split-brain, failover after the node timeout.
#include "core/cluster_faults.hpp"

#include <algorithm>
#include <memory>

#include "lockcheck/assert.hpp"
#include "lockcheck/key_slot.hpp"
#include "model/fault_lines.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::sim {
namespace {

constexpr std::int64_t kMigrateAfterUs = 1000;  // SETSLOT MIGRATING/IMPORTING, then MIGRATE 1 ms later

}  // namespace

void ClusterFaults::slot_migration(const FaultSpec& fault, FaultLine& line) {
  const int slot = key_hash_slot(world_.config.workload.key);
  const int from = cluster_.owner_of(slot);
  const int to = fault.node;
  LOCKCHECK_ASSERT(from >= 0 && static_cast<std::size_t>(from) < world_.nodes.size());  // every slot has its node
  if (from == to || node(to).replica_of() >= 0 || !node(to).up() || !node(from).up()) return;
  // An open slot is not resharded again (redis-cli --cluster asks to fix it first): a second MIGRATING would
  // strand the keys the first one already moved in a slot their node never comes to own.
  if (cluster_.migrating(slot)) return;
  line.write(Json{{"from", from}, {"slot", slot}});
  cluster_.begin_migration(slot, to);
  // The keys move at once, as redis-cli's MIGRATE loop does (clients asking the old owner for them then get
  // -ASK); at the end the slot is the target's (-MOVED).
  // A step that meets a node down fails as redis-cli's MIGRATE or SETSLOT NODE would, and the reshard stops
  // there: the keys stay where they are and the slot stays open (a later reshard of it is refused above).
  auto stopped = std::make_shared<bool>(false);
  world_.scheduler.after(std::min<std::int64_t>(kMigrateAfterUs, fault.duration_us), [this, slot, from, to, stopped] {
    if (!node(from).up() || !node(to).up()) {
      *stopped = true;
      return;
    }
    int source = -1, target = -1;
    if (!cluster_.move_keys(slot, source, target)) return;
    LOCKCHECK_ASSERT(source == from && target == to);  // nothing else moves an open slot
    world_.replication.replicate(node(source));
    world_.replication.replicate(node(target));
  });
  world_.scheduler.after(fault.duration_us, [this, slot, to, stopped] {
    if (*stopped || !node(to).up()) return;
    if (cluster_.finish_migration(slot)) world_.write_fault_line(fault_lines::slot_migrated(to, slot));
  });
}

void ClusterFaults::split_brain(const FaultSpec& fault, FaultLine& line) {
  const int master = fault.node;
  int replica = -1;
  for (const auto& other : world_.nodes) {
    if (other->replica_of() == master && other->up() && replica < 0) replica = other->id();
  }
  if (replica < 0 || !node(master).up() || cluster_.isolated(master)) return;
  // A node some replica follows is a master (a replica never follows another replica).
  LOCKCHECK_ASSERT(node(master).replica_of() < 0);
  line.write();
  for (int process = 0; process < world_.process_count; ++process) {
    if (process != fault.process) world_.network.cut_link(process, master);
  }
  for (const auto& other : world_.nodes) {
    if (other->id() == master) continue;
    world_.network.cut_link(fault.process, other->id());
    if (other->replica_of() == master) world_.replication.cut(other->id());
  }
  world_.scheduler.after(world_.config.cluster.node_timeout_us, [this, master, replica] {
    // The majority marks the master failed and elects its replica; the master, unable to reach a majority
    // for as long, stops serving (CLUSTERDOWN) but keeps its data and still believes it is a master.
    if (!node(replica).up() || node(replica).replica_of() != master) return;
    // Alive, it keeps the grants it made on its side (and its role) until it rejoins: as on real Redis
    // (topology_cluster_split.cpp), the checkers judge them against the promoted node's as two masters.
    world_.write_fault_line(fault_lines::failover_by(replica, master, "cluster", node(master).up()));
    node(replica).promote();
    world_.replication.restore(replica);
    for (auto& other : world_.nodes) {
      if (other->replica_of() == master && other->id() != replica) other->follow(replica);
    }
    cluster_.failover(master, replica, true);
  });
}

void ClusterFaults::watch_master(int master) {
  LOCKCHECK_ASSERT(!node(master).up());  // watched from its crash on (node_crash)
  if (node(master).replica_of() >= 0 || cluster_.master_of(master) >= 0) return;
  int replica = -1;
  for (const auto& other : world_.nodes) {
    if (other->replica_of() == master && other->up() && replica < 0) replica = other->id();
  }
  if (replica < 0) return;  // a shard without a live replica stays down until the master restarts
  world_.scheduler.after(world_.config.cluster.node_timeout_us, [this, master, replica] {
    // Restarted within the node timeout it is a master again, and nothing fails over.
    if (node(master).up() || !node(replica).up() || node(replica).replica_of() != master) return;
    world_.write_fault_line(fault_lines::failover_by(replica, master, "cluster", false));
    node(replica).promote();
    for (auto& other : world_.nodes) {
      if (other->replica_of() == master && other->id() != replica) other->follow(replica);
    }
    cluster_.failover(master, replica);
    node(replica).record_losses(node(master).data_at_crash(), master);
  });
}

bool ClusterFaults::restart_failed_master(int id, RestartMode mode) {
  SimNode& old_master = node(id);
  LOCKCHECK_ASSERT(!old_master.up());  // a restart only of a crashed node (node_restart)
  const int promoted = cluster_.master_of(id);
  if (old_master.replica_of() >= 0 || promoted < 0 || cluster_.isolated(id)) return false;
  old_master.restart(mode, false);
  world_.write_fault_line(fault_lines::rejoin(id, promoted));
  old_master.follow(promoted);
  old_master.mock().restore(node(promoted).mock().snapshot());
  cluster_.rejoin(id);
  return true;
}

void ClusterFaults::hold_down_restarted_master(int id) {
  LOCKCHECK_ASSERT(node(id).up());  // called once its restart is done
  if (node(id).replica_of() >= 0 || cluster_.master_of(id) >= 0) return;
  cluster_.hold_down_after_start(id);
  // Redis 7.0's clusterUpdateState: a master keeps its state FAIL for CLUSTER_WRITABLE_DELAY after it starts.
  constexpr std::int64_t kWritableDelayUs = 2'000'000;
  world_.scheduler.after(kWritableDelayUs, [this, id, incarnation = node(id).crashes()] {
    // A crash since then started another delay, which ends it.
    if (node(id).crashes() == incarnation) cluster_.writable(id);
  });
}

void ClusterFaults::heal() {
  for (auto& old_master : world_.nodes) {
    const int id = old_master->id();
    if (!cluster_.isolated(id)) continue;
    // The old master learns the newer epoch and becomes a replica of the node that replaced it; the full
    // resync replaces its data, so whatever it accepted on its own is gone.
    const int promoted = cluster_.master_of(id);
    // An isolated old master was failed over (ClusterTopology::failover), to a node the cluster takes for a master.
    LOCKCHECK_ASSERT(promoted >= 0 && cluster_.master_of(promoted) < 0);
    cluster_.rejoin(id);
    if (promoted < 0 || !old_master->up()) continue;
    world_.write_fault_line(fault_lines::rejoin(id, promoted));
    const mock::Dataset before = old_master->mock().snapshot();
    old_master->follow(promoted);
    old_master->mock().restore(node(promoted).mock().snapshot());
    old_master->record_losses(before, id);
  }
}

}  // namespace lockcheck::sim
