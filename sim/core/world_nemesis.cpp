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

void World::pause(const FaultSpec& fault, FaultLine& line) {
  ClientProcess& process = client(fault.process);
  if (!process.alive() || process.paused()) return;
  line.write();
  process.pause();
  LOCKCHECK_ASSERT(process.paused());
  const int id = fault.process;
  scheduler_.after(fault.duration_us, [this, id] {
    if (!client(id).paused()) return;
    write_fault_line(fault_lines::resume(id));
    client(id).resume();
  });
}

void World::crash(const FaultSpec& fault, FaultLine& line) {
  if (!client(fault.process).alive()) return;
  line.write();
  client(fault.process).crash();
  LOCKCHECK_ASSERT(!client(fault.process).alive());
  for (auto& simulated : nodes_) simulated->close_connections(fault.process);
}

void World::restart(const FaultSpec& fault, FaultLine& line) {
  if (client(fault.process).alive()) return;
  line.write();
  start_client(fault.process);
}

void World::client_clock_jump(const FaultSpec& fault, FaultLine& line) {
  line.write();
  client(fault.process).clock_model().jump(fault.delta_us);
}

void World::client_clock_drift(const FaultSpec& fault, FaultLine& line) {
  line.write();
  client(fault.process).clock_model().set_drift(scheduler_.now(), fault.drift_ppm);
}

void World::node_clock_jump(const FaultSpec& fault, FaultLine& line) {
  line.write();
  node(fault.node).clock().jump(fault.delta_us);
}

void World::node_clock_drift(const FaultSpec& fault, FaultLine& line) {
  line.write();
  node(fault.node).clock().set_drift(scheduler_.now(), fault.drift_ppm);
}

void World::node_crash(const FaultSpec& fault, FaultLine& line) {
  if (!node(fault.node).up()) return;
  line.write();
  node(fault.node).crash();
  replication_.drop_waits(fault.node);
  if (sentinel_ && sentinel_->master() == fault.node) sentinel_faults_->watch_master(fault.node);
  if (cluster_) cluster_faults_->watch_master(fault.node);
}

void World::node_restart(const FaultSpec& fault, FaultLine& line) {
  if (node(fault.node).up()) return;
  line.write();
  if (cluster_ && cluster_faults_->restart_failed_master(fault.node, fault.mode)) return;
  node(fault.node).restart(fault.mode);
  // A failed-over master comes back and the sentinels turn it into a replica (taken as instant here).
  if (sentinel_) sentinel_faults_->rejoin_as_replica(fault.node);
}

void World::failover(const FaultSpec& fault, FaultLine& line) {
  SimNode& replica = node(fault.node);
  const int old_master = replica.replica_of();
  if (old_master < 0) return;  // already a master
  line.write(Json{{"from", old_master}});
  SimNode& master = node(old_master);
  const mock::Dataset before = master.up() ? master.mock().snapshot() : mock::Dataset{};
  master.crash();  // Sentinel fences the old master off; it rejoins only as a replica
  replication_.drop_waits(old_master);
  replica.promote();
  if (cluster_) {
    cluster_->failover(old_master, fault.node);  // clients learn it from the nodes (MOVED, refresh)
  } else if (sentinel_) {
    sentinel_->elect(fault.node);  // clients learn it from the sentinels
  } else {
    for (auto& service : routing_) {
      if (service == old_master) service = fault.node;
    }
  }
  for (auto& other : nodes_) {
    // Re-point the remaining replicas at the new master.
    if (other->replica_of() == old_master && other->id() != fault.node) other->follow(fault.node);
  }
  // One master per data set after a failover: the promoted node serves, nothing routes to the fenced one.
  LOCKCHECK_ASSERT(replica.replica_of() < 0 && !master.up());
  LOCKCHECK_ASSERT(std::find(routing_.begin(), routing_.end(), old_master) == routing_.end() || cluster_ || sentinel_);
  replica.record_losses(before, old_master);
  if (sentinel_) sentinel_->assign_roles();
}

void World::partition(const FaultSpec& fault, FaultLine& line) {
  line.write();
  network_.cut_link(fault.process, fault.node);
}

void World::replica_partition(const FaultSpec& fault, FaultLine& line) {
  if (node(fault.node).replica_of() < 0) return;  // promoted meanwhile: no replication link to cut
  line.write();
  replication_.cut(fault.node);
  if (sentinel_) sentinel_faults_->replica_cut(fault.node);
}

void World::heal(const FaultSpec&, FaultLine& line) {
  line.write();
  network_.heal_links();
  if (cluster_) cluster_faults_->heal();
  if (sentinel_) sentinel_faults_->heal();
  // A healed replica resynchronises with its master at once, as a partial resync would.
  const std::set<int> healed = replication_.restore_all();
  for (const int replica : healed) {
    const int master = node(replica).replica_of();
    if (master >= 0 && node(master).up()) replication_.replicate(node(master));
  }
}

void World::loss(const FaultSpec& fault, FaultLine& line) {
  line.write();
  network_.set_loss(fault.request_loss_ppm, fault.reply_loss_ppm);
}

void World::slow_node(const FaultSpec& fault, FaultLine& line) {
  line.write();
  network_.set_slow(fault.node, fault.duration_us);
}

void World::evict(const FaultSpec& fault, FaultLine& line) {
  line.write();
  if (fault.evict_target == EvictTarget::lock) {
    evict_lock_key(node(fault.node));
  } else {
    node(fault.node).mock().evict_one();
  }
}

void World::slot_migration(const FaultSpec& fault, FaultLine& line) {
  if (!cluster_) throw std::invalid_argument("fault 'slot_migration' needs a [cluster]");
  cluster_faults_->slot_migration(fault, line);
}

void World::split_brain(const FaultSpec& fault, FaultLine& line) {
  if (sentinel_) {
    sentinel_faults_->split_brain(fault, line);
  } else if (cluster_) {
    cluster_faults_->split_brain(fault, line);
  } else {
    throw std::invalid_argument("fault 'split_brain' needs a [cluster]");
  }
}

}  // namespace lockcheck::sim
