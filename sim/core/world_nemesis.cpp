// The simulator's Nemesis: what each fault does to the simulated world. The dispatcher
// (nemesis/dispatch.cpp) has validated the fault and composed its line; each fault writes it when it takes
// effect.
#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/world.hpp"
#include "lockcheck/assert.hpp"
#include "model/fault_lines.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::sim {

void World::write_fault_line(Json line) { history_.record(scheduler_.now(), "fault", line); }

// What each fault does to the simulated world: one member per kind, reached through carry_out()'s switch.
struct World::Faults {
  World& world;

  void pause(const FaultSpec& fault, FaultLine& line) {
    ClientProcess& process = world.client(fault.process);
    if (!process.alive() || process.paused()) return;
    line.write();
    process.pause();
    LOCKCHECK_ASSERT(process.paused());
    const int id = fault.process;
    world.scheduler_.after(fault.duration_us, [&world = world, id] {
      if (!world.client(id).paused()) return;
      world.write_fault_line(fault_lines::resume(id));
      world.client(id).resume();
    });
  }

  void crash(const FaultSpec& fault, FaultLine& line) {
    if (!world.client(fault.process).alive()) return;
    line.write();
    world.client(fault.process).crash();
    LOCKCHECK_ASSERT(!world.client(fault.process).alive());
    for (auto& simulated : world.nodes_) simulated->close_connections(fault.process);
  }

  void restart(const FaultSpec& fault, FaultLine& line) {
    if (world.client(fault.process).alive()) return;
    line.write();
    world.start_client(fault.process);
  }

  void client_clock_jump(const FaultSpec& fault, FaultLine& line) {
    line.write();
    world.client(fault.process).clock_model().jump(fault.delta_us);
  }

  void client_clock_drift(const FaultSpec& fault, FaultLine& line) {
    line.write();
    world.client(fault.process).clock_model().set_drift(world.scheduler_.now(), fault.drift_ppm);
  }

  void node_clock_jump(const FaultSpec& fault, FaultLine& line) {
    line.write();
    world.node(fault.node).clock().jump(fault.delta_us);
  }

  void node_clock_drift(const FaultSpec& fault, FaultLine& line) {
    line.write();
    world.node(fault.node).clock().set_drift(world.scheduler_.now(), fault.drift_ppm);
  }

  void node_crash(const FaultSpec& fault, FaultLine& line) {
    if (!world.node(fault.node).up()) return;
    line.write();
    world.node(fault.node).crash();
    world.replication_.drop_waits(fault.node);
    if (world.sentinel_ && world.sentinel_->master() == fault.node) world.sentinel_faults_->watch_master(fault.node);
    if (world.cluster_) world.cluster_faults_->watch_master(fault.node);
  }

  void node_restart(const FaultSpec& fault, FaultLine& line) {
    if (world.node(fault.node).up()) return;
    line.write();
    if (world.cluster_ && world.cluster_faults_->restart_failed_master(fault.node, fault.mode)) return;
    world.node(fault.node).restart(fault.mode);
    if (world.cluster_) world.cluster_faults_->hold_down_restarted_master(fault.node);
    // A failed-over master comes back and the sentinels turn it into a replica (taken as instant here).
    if (world.sentinel_) world.sentinel_faults_->rejoin_as_replica(fault.node);
  }

  void failover(const FaultSpec& fault, FaultLine& line) {
    SimNode& replica = world.node(fault.node);
    const int old_master = replica.replica_of();
    if (old_master < 0) return;  // already a master
    line.write(Json{{"from", old_master}});
    SimNode& master = world.node(old_master);
    // What the old master held: now, or when it crashed (a promoted replica lacks it either way).
    const mock::Dataset before = master.up() ? master.mock().snapshot() : master.data_at_crash();
    if (master.up()) master.crash();  // Sentinel fences the old master off; it rejoins only as a replica
    world.replication_.drop_waits(old_master);
    replica.promote();
    if (world.cluster_) {
      world.cluster_->failover(old_master, fault.node);  // clients learn it from the nodes (MOVED, refresh)
    } else if (world.sentinel_) {
      world.sentinel_->elect(fault.node);  // clients learn it from the sentinels
    } else {
      for (auto& service : world.routing_) {
        if (service == old_master) service = fault.node;
      }
    }
    for (auto& other : world.nodes_) {
      // Re-point the remaining replicas at the new master.
      if (other->replica_of() == old_master && other->id() != fault.node) other->follow(fault.node);
    }
    // One master per data set after a failover: the promoted node serves, nothing routes to the fenced one.
    LOCKCHECK_ASSERT(replica.replica_of() < 0 && !master.up());
    LOCKCHECK_ASSERT(std::find(world.routing_.begin(), world.routing_.end(), old_master) == world.routing_.end() ||
                     world.cluster_ || world.sentinel_);
    replica.record_losses(before, old_master);
    if (world.sentinel_) world.sentinel_->assign_roles();
  }

  void partition(const FaultSpec& fault, FaultLine& line) {
    line.write();
    world.network_.cut_link(fault.process, fault.node);
  }

  void replica_partition(const FaultSpec& fault, FaultLine& line) {
    if (world.node(fault.node).replica_of() < 0) return;  // promoted meanwhile: no replication link to cut
    line.write();
    world.replication_.cut(fault.node);
    if (world.sentinel_) world.sentinel_faults_->replica_cut(fault.node);
  }

  void heal(const FaultSpec&, FaultLine& line) {
    line.write();
    world.network_.heal_links();
    if (world.cluster_) world.cluster_faults_->heal();
    if (world.sentinel_) world.sentinel_faults_->heal();
    // A healed replica resynchronises with its master at once, as a partial resync would.
    const std::set<int> healed = world.replication_.restore_all();
    for (const int replica : healed) {
      const int master = world.node(replica).replica_of();
      LOCKCHECK_ASSERT(master < 0 || world.node(master).replica_of() < 0);  // a replica follows a master
      if (master >= 0 && world.node(master).up()) world.replication_.replicate(world.node(master));
    }
  }

  void loss(const FaultSpec& fault, FaultLine& line) {
    line.write();
    world.network_.set_loss(fault.request_loss_ppm, fault.reply_loss_ppm);
  }

  void slow_node(const FaultSpec& fault, FaultLine& line) {
    line.write();
    world.network_.set_slow(fault.node, fault.duration_us);
  }

  void evict(const FaultSpec& fault, FaultLine& line) {
    LOCKCHECK_ASSERT(fault.node >= 0 && fault.node < world.node_count());  // the reader checked the node exists
    line.write();
    SimNode& target = world.node(fault.node);
    const bool evicted = fault.evict_target == EvictTarget::lock ? world.evict_lock_key(target) : target.evict_one();
    // A master's eviction reaches its replicas (Redis propagates a DEL for each key it evicts), as its writes do.
    if (evicted && target.up() && target.replica_of() < 0) world.replication_.replicate(target);
  }

  void slot_migration(const FaultSpec& fault, FaultLine& line) {
    if (!world.cluster_) throw std::invalid_argument("fault 'slot_migration' needs a [cluster]");
    world.cluster_faults_->slot_migration(fault, line);
  }

  void split_brain(const FaultSpec& fault, FaultLine& line) {
    if (world.sentinel_) {
      world.sentinel_faults_->split_brain(fault, line);
    } else if (world.cluster_) {
      world.cluster_faults_->split_brain(fault, line);
    } else {
      throw std::invalid_argument("fault 'split_brain' needs a [cluster]");
    }
  }
};

void World::carry_out(const FaultSpec& fault, FaultLine& line) {
  // Each fault writes its line once, when it takes effect: the dispatcher hands over a line not yet written.
  LOCKCHECK_ASSERT(!line.written());
  Faults faults{*this};
  // Every kind is a case (no default): the compiler names this place for a new kind.
  switch (fault.kind) {
    case FaultKind::pause: return faults.pause(fault, line);
    case FaultKind::crash: return faults.crash(fault, line);
    case FaultKind::restart: return faults.restart(fault, line);
    case FaultKind::client_clock_jump: return faults.client_clock_jump(fault, line);
    case FaultKind::client_clock_drift: return faults.client_clock_drift(fault, line);
    case FaultKind::node_clock_jump: return faults.node_clock_jump(fault, line);
    case FaultKind::node_clock_drift: return faults.node_clock_drift(fault, line);
    case FaultKind::node_crash: return faults.node_crash(fault, line);
    case FaultKind::node_restart: return faults.node_restart(fault, line);
    case FaultKind::failover: return faults.failover(fault, line);
    case FaultKind::partition: return faults.partition(fault, line);
    case FaultKind::heal: return faults.heal(fault, line);
    case FaultKind::loss: return faults.loss(fault, line);
    case FaultKind::slow_node: return faults.slow_node(fault, line);
    case FaultKind::evict: return faults.evict(fault, line);
    case FaultKind::replica_partition: return faults.replica_partition(fault, line);
    case FaultKind::slot_migration: return faults.slot_migration(fault, line);
    case FaultKind::split_brain: return faults.split_brain(fault, line);
  }
}

}  // namespace lockcheck::sim
