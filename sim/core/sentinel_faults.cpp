// Sentinel faults: failure detection by down-after with quorum, failover, and the split-brain of an old
// master cut off with some clients from the sentinels' majority (Jepsen's Redis analysis).
#include "core/sentinel_faults.hpp"

#include "lockcheck/assert.hpp"
#include "model/fault_lines.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::sim {

void SentinelFaults::watch_master(int master) {
  LOCKCHECK_ASSERT(master == sentinel_.master());  // the sentinels watch the master they know, no other node
  const std::int64_t epoch = sentinel_.epoch();
  // Each sentinel marks the master subjectively down once it went unanswered for down-after; with the
  // sentinels acting as one body, that is objectively down as soon as quorum <= sentinels.
  world_.scheduler.after(world_.config.sentinel.down_after_us, [this, master, epoch] {
    if (sentinel_.epoch() != epoch || sentinel_.master() != master || !sentinel_.master_unreachable()) return;
    const int promoted = sentinel_.can_fail_over() ? sentinel_.pick_replica() : -1;
    if (promoted < 0) {
      // Too few sentinels to agree, or no replica to promote: they keep trying, as their failover timeout
      // lets them (bounded by the run's end).
      if (world_.scheduler.now() + world_.config.sentinel.down_after_us <= world_.config.duration_us) watch_master(master);
      return;
    }
    failover(master, promoted);
  });
}

void SentinelFaults::failover(int old_master, int promoted) {
  // The sentinels promote a live replica of the master they took down (SentinelTopology::pick_replica).
  LOCKCHECK_ASSERT(old_master == sentinel_.master() && node(promoted).up() && node(promoted).replica_of() == old_master);
  // A master cut off alive (a split-brain) still believes it is the master and serves its side until it
  // rejoins: the checkers judge its grants against the promoted node's as two masters at once.
  world_.write_fault_line(fault_lines::failover_by(promoted, old_master, "sentinels", node(old_master).up()));
  node(promoted).promote();
  world_.replication.restore(promoted);
  for (auto& other : world_.nodes) {
    if (other->replica_of() != old_master || other->id() == promoted) continue;
    // Reconfigured to replicate the new master (the old one's link, cut or not, no longer matters).
    other->follow(promoted);
    world_.replication.restore(other->id());
  }
  sentinel_.elect(promoted);
  sentinel_.assign_roles();
  world_.replication.replicate(node(promoted));
}

void SentinelFaults::rejoin_as_replica(int old_master) {
  SimNode& stale = node(old_master);
  const int master = sentinel_.master();
  if (master == old_master || !stale.up() || stale.replica_of() >= 0) return;
  LOCKCHECK_ASSERT(node(master).replica_of() < 0);  // the node the sentinels name is a master, never a replica
  // The sentinels reconfigure it with REPLICAOF; the full resync replaces its data set, so whatever it
  // accepted since the failover is gone.
  world_.write_fault_line(fault_lines::rejoin(old_master, master));
  const mock::Dataset before = stale.mock().snapshot();
  stale.follow(master);
  stale.mock().restore(node(master).mock().snapshot());
  stale.record_losses(before, old_master);
  sentinel_.assign_roles();
}

void SentinelFaults::split_brain(const FaultSpec& fault, FaultLine& line) {
  const int master = fault.node;
  if (master != sentinel_.master() || !node(master).up() || sentinel_.is_cut_off(master)) return;
  LOCKCHECK_ASSERT(node(master).replica_of() < 0);  // the node the sentinels name is a master, never a replica
  line.write();
  sentinel_.leave_with_master(world_.config.sentinel.sentinels_on_master_side);
  for (int endpoint = 0; endpoint < sentinel_.endpoint_count(); ++endpoint) {
    const bool on_master_side =
        endpoint == master || (sentinel_.is_sentinel(endpoint) &&
                               sentinel_.with_master(endpoint - sentinel_.endpoint_of_sentinel(0)));
    if (!on_master_side) {
      world_.network.cut_link(fault.process, endpoint);
      continue;
    }
    for (int process = 0; process < world_.process_count; ++process) {
      if (process != fault.process) world_.network.cut_link(process, endpoint);
    }
  }
  for (const auto& other : world_.nodes) {
    if (other->replica_of() != master) continue;
    world_.replication.cut(other->id());
    replica_cut(other->id());
  }
  sentinel_.cut_off(master);
  watch_master(master);
}

void SentinelFaults::heal() {
  for (const int node_id : sentinel_.reconnect_all()) rejoin_as_replica(node_id);
}

void SentinelFaults::gate_writes(SimNode& master) {
  // min-replicas-to-write gates a live master's writes as it runs them (World::deliver).
  LOCKCHECK_ASSERT(master.up() && master.replica_of() < 0);
  const SentinelConfig& config = world_.config.sentinel;
  int good = 0;
  for (const auto& replica : world_.nodes) {
    if (replica->replica_of() != master.id() || !replica->up()) continue;
    // A replica acknowledges every second; the master counts those heard from within the max lag.
    const auto cut = replica_cut_at_us_.find(replica->id());
    const bool linked = world_.replication.linked(replica->id()) || cut == replica_cut_at_us_.end();
    if (linked || world_.scheduler.now() - cut->second <= config.min_replicas_max_lag_us) ++good;
  }
  master.mock().set_write_refusal(good < config.min_replicas_to_write ? std::string(mock::err::kNoReplicas) : std::string());
}

}  // namespace lockcheck::sim
