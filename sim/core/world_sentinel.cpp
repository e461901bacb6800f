// Sentinel faults: failure detection by down-after with quorum, failover, and the split-brain of an old
// master cut off with some clients from the sentinels' majority (Jepsen's Redis analysis).
#include <fmt/format.h>

#include <stdexcept>

#include "core/world.hpp"
#include "model/fault_lines.hpp"
#include "redis/server/errors.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::sim {

void World::watch_master(int master) {
  const std::int64_t epoch = sentinel_->epoch();
  // Each sentinel marks the master subjectively down once it went unanswered for down-after; with the
  // sentinels acting as one body, that is objectively down as soon as quorum <= sentinels.
  scheduler_.after(config_.sentinel.down_after_us, [this, master, epoch] {
    if (sentinel_->epoch() != epoch || sentinel_->master() != master || !sentinel_->master_unreachable()) return;
    const int promoted = sentinel_->can_fail_over() ? sentinel_->pick_replica() : -1;
    if (promoted < 0) {
      // Too few sentinels to agree, or no replica to promote: they keep trying, as their failover timeout
      // lets them (bounded by the run's end).
      if (scheduler_.now() + config_.sentinel.down_after_us <= config_.duration_us) watch_master(master);
      return;
    }
    sentinel_failover(master, promoted);
  });
}

void World::sentinel_failover(int old_master, int promoted) {
  // A master cut off alive (a split-brain) still believes it is the master and serves its side until it
  // rejoins: the checkers judge its grants against the promoted node's as two masters at once.
  write_fault_line(fault_lines::failover_by(promoted, old_master, "sentinels", node(old_master).up()));
  node(promoted).promote();
  replication_.restore(promoted);
  for (auto& other : nodes_) {
    if (other->replica_of() != old_master || other->id() == promoted) continue;
    // Reconfigured to replicate the new master (the old one's link, cut or not, no longer matters).
    other->follow(promoted);
    replication_.restore(other->id());
  }
  sentinel_->elect(promoted);
  sentinel_->assign_roles();
  replication_.replicate(node(promoted));
}

void World::rejoin_as_replica(int old_master) {
  SimNode& stale = node(old_master);
  const int master = sentinel_->master();
  if (master == old_master || !stale.up() || stale.replica_of() >= 0) return;
  // The sentinels reconfigure it with REPLICAOF; the full resync replaces its data set, so whatever it
  // accepted since the failover is gone.
  write_fault_line(fault_lines::rejoin(old_master, master));
  const mock::Dataset before = stale.mock().snapshot();
  stale.follow(master);
  stale.mock().restore(node(master).mock().snapshot());
  stale.record_losses(before, old_master);
  sentinel_->assign_roles();
}

void World::apply_sentinel_split_brain(const FaultSpec& fault, FaultLine& line) {
  const int master = fault.node;
  if (master != sentinel_->master() || !node(master).up() || sentinel_->is_cut_off(master)) return;
  line.write();
  sentinel_->leave_with_master(config_.sentinel.sentinels_on_master_side);
  for (int endpoint = 0; endpoint < sentinel_->endpoint_count(); ++endpoint) {
    const bool on_master_side =
        endpoint == master || (sentinel_->is_sentinel(endpoint) &&
                               sentinel_->with_master(endpoint - sentinel_->endpoint_of_sentinel(0)));
    if (!on_master_side) {
      network_.cut_link(fault.process, endpoint);
      continue;
    }
    for (const auto& client : clients_) {
      if (client->id() != fault.process) network_.cut_link(client->id(), endpoint);
    }
  }
  for (const auto& other : nodes_) {
    if (other->replica_of() != master) continue;
    replication_.cut(other->id());
    replica_cut_at_us_[other->id()] = scheduler_.now();
  }
  sentinel_->cut_off(master);
  watch_master(master);
}

void World::heal_sentinel() {
  for (const int node_id : sentinel_->reconnect_all()) rejoin_as_replica(node_id);
}

void World::gate_writes(SimNode& master) {
  const SentinelConfig& config = config_.sentinel;
  int good = 0;
  for (const auto& replica : nodes_) {
    if (replica->replica_of() != master.id() || !replica->up()) continue;
    // A replica acknowledges every second; the master counts those heard from within the max lag.
    const auto cut = replica_cut_at_us_.find(replica->id());
    const bool linked = replication_.linked(replica->id()) || cut == replica_cut_at_us_.end();
    if (linked || scheduler_.now() - cut->second <= config.min_replicas_max_lag_us) ++good;
  }
  master.mock().set_write_refusal(good < config.min_replicas_to_write ? std::string(mock::err::kNoReplicas) : std::string());
}

}  // namespace lockcheck::sim
