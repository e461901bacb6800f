#include "real_nemesis.hpp"

#include <algorithm>
#include <stdexcept>

#include "lockcheck/assert.hpp"
#include "model/fault_lines.hpp"

namespace lockcheck::redis_backend {

void RealNemesis::write_fault_line(sim::Json line) {
  // RecordSink lines carry the fields after "kind"; a fault line's first field is "fault".
  sink_.add(time_.now_us(), "fault", std::move(line));
}

// Each fault made real: one member per kind, reached through carry_out()'s switch.
struct RealNemesis::Faults {
  RealNemesis& nemesis;

  void pause(const sim::FaultSpec& fault, sim::FaultLine& line) {
    if (!nemesis.workers_->alive(fault.process) || nemesis.paused_.count(fault.process) > 0) return;
    line.write();
    nemesis.workers_->pause(fault.process);
    nemesis.paused_.insert(fault.process);
    const int id = fault.process;
    nemesis.schedule_(nemesis.time_.now_us() + fault.duration_us, [&nemesis = nemesis, id] {
      if (nemesis.paused_.erase(id) == 0) return;
      nemesis.write_fault_line(sim::fault_lines::resume(id));
      nemesis.workers_->resume(id);
    });
  }

  void crash(const sim::FaultSpec& fault, sim::FaultLine& line) {
    if (!nemesis.workers_->alive(fault.process)) return;
    line.write();
    nemesis.workers_->crash(fault.process);
    nemesis.paused_.erase(fault.process);
  }

  void restart(const sim::FaultSpec& fault, sim::FaultLine& line) {
    if (nemesis.workers_->alive(fault.process)) return;
    line.write();
    nemesis.workers_->start(fault.process);
  }

  void client_clock_jump(const sim::FaultSpec& fault, sim::FaultLine& line) {
    line.write();
    nemesis.client_clocks_->at(static_cast<std::size_t>(fault.process))->jump_wall(fault.delta_us);
  }

  void client_clock_drift(const sim::FaultSpec& fault, sim::FaultLine& line) {
    line.write();
    nemesis.client_clocks_->at(static_cast<std::size_t>(fault.process))->set_drift(fault.drift_ppm);
  }

  void node_clock_jump(const sim::FaultSpec& fault, sim::FaultLine& line) {
    line.write();
    nemesis.topology_.clock_jump(fault.node, fault.delta_us);
  }

  void node_clock_drift(const sim::FaultSpec& fault, sim::FaultLine& line) {
    line.write();
    nemesis.topology_.clock_drift(fault.node, fault.drift_ppm);
  }

  void node_crash(const sim::FaultSpec& fault, sim::FaultLine& line) {
    if (nemesis.down_.count(fault.node) > 0) return;
    line.write();
    nemesis.topology_.node_crash(fault.node);
    nemesis.down_.insert(fault.node);
  }

  void node_restart(const sim::FaultSpec& fault, sim::FaultLine& line) {
    if (nemesis.down_.erase(fault.node) == 0) return;
    line.write();
    nemesis.topology_.node_restart(fault.node, fault.mode, nemesis.time_.now_us());
  }

  void failover(const sim::FaultSpec& fault, sim::FaultLine& line) {
    if (nemesis.topology_.sentinel()) {
      // The sentinels choose the replica; the promotion is recorded when it shows (follow_sentinels).
      const std::string refused = nemesis.topology_.sentinel_failover();
      sim::Json fields{{"node", nemesis.topology_.sentinel_master()}};
      if (!refused.empty()) fields["refused"] = refused;
      line.write_as(sim::FaultFollowUp::sentinel_failover, fields);
      return;
    }
    const int old_master = nemesis.topology_.master_of(fault.node);
    if (old_master < 0) return;
    line.write(sim::Json{{"from", old_master}});
    nemesis.topology_.failover(fault.node, nemesis.time_.now_us());
  }

  void partition(const sim::FaultSpec& fault, sim::FaultLine& line) {
    line.write();
    nemesis.topology_.partition(fault.process, fault.node);
  }

  void heal(const sim::FaultSpec&, sim::FaultLine& line) {
    line.write();
    nemesis.topology_.heal();
  }

  void loss(const sim::FaultSpec& fault, sim::FaultLine& line) {
    line.write();
    nemesis.topology_.set_loss(fault.request_loss_ppm, fault.reply_loss_ppm);
  }

  void slow_node(const sim::FaultSpec& fault, sim::FaultLine& line) {
    line.write();
    nemesis.topology_.slow_node(fault.node, fault.duration_us);
  }

  void evict(const sim::FaultSpec&, sim::FaultLine&) {
    throw std::logic_error("the redis backend cannot evict (check_supported refuses it)");
  }

  void replica_partition(const sim::FaultSpec&, sim::FaultLine&) {
    throw std::logic_error("the redis backend cannot cut a replication link (check_supported refuses it)");
  }

  // As the simulator's ClusterFaults::slot_migration: the keys move 1 ms after the slot starts migrating, the
  // slot is the target's at the end.
  void slot_migration(const sim::FaultSpec& fault, sim::FaultLine& line) {
    int from = -1;
    if (!nemesis.topology_.begin_slot_migration(fault.node, from)) return;
    const int slot = nemesis.topology_.lock_slot();
    line.write(sim::Json{{"from", from}, {"slot", slot}});
    const std::int64_t now = nemesis.time_.now_us();
    nemesis.schedule_(now + std::min<std::int64_t>(1000, fault.duration_us),
                      [&nemesis = nemesis] { nemesis.topology_.migrate_slot_keys(); });
    nemesis.schedule_(now + fault.duration_us, [&nemesis = nemesis, to = fault.node, slot] {
      if (nemesis.topology_.finish_slot_migration()) nemesis.write_fault_line(sim::fault_lines::slot_migrated(to, slot));
    });
  }

  void split_brain(const sim::FaultSpec& fault, sim::FaultLine& line) {
    Topology& topology = nemesis.topology_;
    const bool cut = topology.cluster() ? topology.cluster_split_brain(fault.node, fault.process)
                                        : topology.sentinel_split_brain(fault.node, fault.process);
    if (cut) line.write();
  }
};

void RealNemesis::carry_out(const sim::FaultSpec& fault, sim::FaultLine& line) {
  Faults faults{*this};
  // Every kind is a case (no default): the compiler names this place for a new kind. A kind the row says
  // redis-server cannot make real is refused before the run starts (check_supported); reaching it is a bug.
  switch (fault.kind) {
    case sim::FaultKind::pause: return faults.pause(fault, line);
    case sim::FaultKind::crash: return faults.crash(fault, line);
    case sim::FaultKind::restart: return faults.restart(fault, line);
    case sim::FaultKind::client_clock_jump: return faults.client_clock_jump(fault, line);
    case sim::FaultKind::client_clock_drift: return faults.client_clock_drift(fault, line);
    case sim::FaultKind::node_clock_jump: return faults.node_clock_jump(fault, line);
    case sim::FaultKind::node_clock_drift: return faults.node_clock_drift(fault, line);
    case sim::FaultKind::node_crash: return faults.node_crash(fault, line);
    case sim::FaultKind::node_restart: return faults.node_restart(fault, line);
    case sim::FaultKind::failover: return faults.failover(fault, line);
    case sim::FaultKind::partition: return faults.partition(fault, line);
    case sim::FaultKind::heal: return faults.heal(fault, line);
    case sim::FaultKind::loss: return faults.loss(fault, line);
    case sim::FaultKind::slow_node: return faults.slow_node(fault, line);
    case sim::FaultKind::evict: return faults.evict(fault, line);
    case sim::FaultKind::replica_partition: return faults.replica_partition(fault, line);
    case sim::FaultKind::slot_migration: return faults.slot_migration(fault, line);
    case sim::FaultKind::split_brain: return faults.split_brain(fault, line);
  }
}

bool real_backend_supports(sim::FaultKind kind) { return sim::fault_row(kind).on_redis_server; }

}  // namespace lockcheck::redis_backend
