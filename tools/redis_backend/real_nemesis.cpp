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

void RealNemesis::pause(const sim::FaultSpec& fault, sim::FaultLine& line) {
  if (!workers_->alive(fault.process) || paused_.count(fault.process) > 0) return;
  line.write();
  workers_->pause(fault.process);
  paused_.insert(fault.process);
  const int id = fault.process;
  schedule_(time_.now_us() + fault.duration_us, [this, id] {
    if (paused_.erase(id) == 0) return;
    write_fault_line(sim::fault_lines::resume(id));
    workers_->resume(id);
  });
}

void RealNemesis::crash(const sim::FaultSpec& fault, sim::FaultLine& line) {
  if (!workers_->alive(fault.process)) return;
  line.write();
  workers_->crash(fault.process);
  paused_.erase(fault.process);
}

void RealNemesis::restart(const sim::FaultSpec& fault, sim::FaultLine& line) {
  if (workers_->alive(fault.process)) return;
  line.write();
  workers_->start(fault.process);
}

void RealNemesis::client_clock_jump(const sim::FaultSpec& fault, sim::FaultLine& line) {
  line.write();
  client_clocks_->at(static_cast<std::size_t>(fault.process))->jump_wall(fault.delta_us);
}

void RealNemesis::client_clock_drift(const sim::FaultSpec& fault, sim::FaultLine& line) {
  line.write();
  client_clocks_->at(static_cast<std::size_t>(fault.process))->set_drift(fault.drift_ppm);
}

void RealNemesis::node_clock_jump(const sim::FaultSpec& fault, sim::FaultLine& line) {
  line.write();
  topology_.clock_jump(fault.node, fault.delta_us);
}

void RealNemesis::node_clock_drift(const sim::FaultSpec& fault, sim::FaultLine& line) {
  line.write();
  topology_.clock_drift(fault.node, fault.drift_ppm);
}

void RealNemesis::node_crash(const sim::FaultSpec& fault, sim::FaultLine& line) {
  if (down_.count(fault.node) > 0) return;
  line.write();
  topology_.node_crash(fault.node);
  down_.insert(fault.node);
}

void RealNemesis::node_restart(const sim::FaultSpec& fault, sim::FaultLine& line) {
  if (down_.erase(fault.node) == 0) return;
  line.write();
  topology_.node_restart(fault.node, fault.mode, time_.now_us());
}

void RealNemesis::failover(const sim::FaultSpec& fault, sim::FaultLine& line) {
  if (topology_.sentinel()) {
    // The sentinels choose the replica; the promotion is recorded when it shows (follow_sentinels).
    const std::string refused = topology_.sentinel_failover();
    sim::Json fields{{"node", topology_.sentinel_master()}};
    if (!refused.empty()) fields["refused"] = refused;
    line.write_as("sentinel_failover", fields);
    return;
  }
  const int old_master = topology_.master_of(fault.node);
  if (old_master < 0) return;
  line.write(sim::Json{{"from", old_master}});
  topology_.failover(fault.node, time_.now_us());
}

void RealNemesis::partition(const sim::FaultSpec& fault, sim::FaultLine& line) {
  line.write();
  topology_.partition(fault.process, fault.node);
}

void RealNemesis::heal(const sim::FaultSpec&, sim::FaultLine& line) {
  line.write();
  topology_.heal();
}

void RealNemesis::loss(const sim::FaultSpec& fault, sim::FaultLine& line) {
  line.write();
  topology_.set_loss(fault.request_loss_ppm, fault.reply_loss_ppm);
}

void RealNemesis::slow_node(const sim::FaultSpec& fault, sim::FaultLine& line) {
  line.write();
  topology_.slow_node(fault.node, fault.duration_us);
}

void RealNemesis::evict(const sim::FaultSpec&, sim::FaultLine&) {
  throw std::logic_error("the redis backend cannot evict (check_supported refuses it)");
}

void RealNemesis::replica_partition(const sim::FaultSpec&, sim::FaultLine&) {
  throw std::logic_error("the redis backend cannot cut a replication link (check_supported refuses it)");
}

// As the simulator's ClusterFaults::slot_migration: the keys move 1 ms after the slot starts migrating, the
// slot is the target's at the end.
void RealNemesis::slot_migration(const sim::FaultSpec& fault, sim::FaultLine& line) {
  int from = -1;
  if (!topology_.begin_slot_migration(fault.node, from)) return;
  const int slot = topology_.lock_slot();
  line.write(sim::Json{{"from", from}, {"slot", slot}});
  const std::int64_t now = time_.now_us();
  schedule_(now + std::min<std::int64_t>(1000, fault.duration_us), [this] { topology_.migrate_slot_keys(); });
  schedule_(now + fault.duration_us, [this, to = fault.node, slot] {
    if (topology_.finish_slot_migration()) write_fault_line(sim::fault_lines::slot_migrated(to, slot));
  });
}

void RealNemesis::split_brain(const sim::FaultSpec& fault, sim::FaultLine& line) {
  const bool cut = topology_.cluster() ? topology_.cluster_split_brain(fault.node, fault.process)
                                       : topology_.sentinel_split_brain(fault.node, fault.process);
  if (cut) line.write();
}

bool real_backend_supports(sim::FaultKind kind) { return sim::fault_row(kind).on_redis_server; }

}  // namespace lockcheck::redis_backend
