// Asynchronous replication: a master's write ships its data set to each replica after the replica's drawn lag
// (replication_lag_min_us..max_us); a cut link loses it; a cluster master's crash closes its replicas' links.
//
// WAIT numreplicas timeout on a simulated master. Redis blocks the client until `numreplicas` replicas have
// acknowledged the replication offset the master had when WAIT ran, or until the timeout, and then replies
// with the number that had. Here a replica acknowledges when it has applied that replication sequence (the
// ack's trip back is not modelled), and only replicas that are up, reachable (no replica_partition) and still
// follow the master count.
// Everything is driven by scheduler events: a replica applying a write wakes the master's waits, a timer on
// the master's clock ends them, a crash of the master (or its fencing in a failover) drops the connection.
#include "core/replication.hpp"

#include <fmt/format.h>

#include <utility>

#include "lockcheck/assert.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::sim {

Replication::Replication(const RunConfig& config, std::uint64_t seed, Scheduler& scheduler,
                         const std::vector<std::unique_ptr<SimNode>>& nodes, ReplyPath& answers)
    : config_(config),
      scheduler_(scheduler),
      nodes_(nodes),
      answers_(answers),
      prng_(derive_seed(seed, "replication")),
      sent_sequence_(config.nodes.size(), 0) {}

void Replication::replicate(SimNode& master) {
  const std::uint64_t sequence = ++replication_sequence_;
  const int from = master.id();
  LOCKCHECK_ASSERT(master.up() && sequence > sent_sequence_[static_cast<std::size_t>(from)]);  // offsets only grow
  sent_sequence_[static_cast<std::size_t>(from)] = sequence;
  // Taken once a replica is to receive it: a master without replicas (each of redlock's) copies nothing. A
  // copy per write was a sixth of explore's CPU on reentrant locks, whose request records grow the data set.
  std::shared_ptr<mock::Dataset> dataset;
  for (const auto& replica : nodes_) {
    if (replica->replica_of() != from || cut_replicas_.count(replica->id()) != 0) continue;
    if (!dataset) dataset = std::make_shared<mock::Dataset>(master.mock().snapshot());
    const NodeConfig& config = config_.nodes[static_cast<std::size_t>(replica->id())];
    const std::int64_t lag = prng_.between(config.replication_lag_min_us, config.replication_lag_max_us);
    SimNode* target = replica.get();
    scheduler_.after(lag, [this, target, from, sequence, dataset] {
      if (cut_replicas_.count(target->id()) != 0) return;  // lost on the cut link
      // A cluster master's crash closes its replicas' links: what was in flight is lost with it, as on the
      // real backend (its replication proxy drops a closed connection's queue).
      if (config_.cluster.shards > 0 && !nodes_[static_cast<std::size_t>(from)]->up()) return;
      // The last replica to receive it takes the copy in flight; the others copy it.
      target->apply_replication(from, sequence, *dataset, dataset.use_count() == 1);
      wake_waits(from);
    });
  }
}

std::set<int> Replication::restore_all() { return std::exchange(cut_replicas_, {}); }


std::int64_t Replication::acknowledged_replicas(int master, std::uint64_t target_sequence) const {
  // A WAIT targets an offset its master has already sent (offsets only grow, so it stays reached).
  LOCKCHECK_ASSERT(master >= 0 && static_cast<std::size_t>(master) < sent_sequence_.size() &&
                   target_sequence <= sent_sequence_[static_cast<std::size_t>(master)]);
  std::int64_t acknowledged = 0;
  for (const auto& replica : nodes_) {
    if (replica->replica_of() == master && replica->up() && cut_replicas_.count(replica->id()) == 0 &&
        replica->applied_sequence() >= target_sequence) {
      ++acknowledged;
    }
  }
  return acknowledged;
}

void Replication::start_wait(int process, int node_id, const SimNode::WaitRequest& request,
                       std::shared_ptr<PendingCall> pending) {
  // WAIT blocks only on a live master: a replica or a crashed node never gets this far (World::deliver).
  LOCKCHECK_ASSERT(nodes_.at(static_cast<std::size_t>(node_id))->up() &&
                   nodes_[static_cast<std::size_t>(node_id)]->replica_of() < 0);
  const std::uint64_t target = sent_sequence_[static_cast<std::size_t>(node_id)];
  if (request.numreplicas <= 0 || acknowledged_replicas(node_id, target) >= request.numreplicas) {
    answers_.reply_to(process, node_id, Reply::integer_reply(acknowledged_replicas(node_id, target)), std::move(pending));
    return;
  }
  const std::uint64_t id = next_wait_id_++;
  waits_.emplace(id, ReplicaWait{process, node_id, target, request.numreplicas, std::move(pending)});
  if (request.timeout_ms > 0) {
    // The timeout runs on the master's clock: its rate (drift) counts, like every timer of that node.
    ClockModel& clock = nodes_[static_cast<std::size_t>(node_id)]->clock();
    const TrueTime at = clock.true_time_of(clock.monotonic_at(scheduler_.now()) + request.timeout_ms * 1000);
    scheduler_.at(at, [this, id] { finish_wait(id); });
  }
}

void Replication::finish_wait(std::uint64_t id) {
  const auto it = waits_.find(id);
  if (it == waits_.end()) return;  // already answered, or dropped with its node
  ReplicaWait wait = std::move(it->second);
  waits_.erase(it);
  const std::int64_t acknowledged = acknowledged_replicas(wait.node, wait.target_sequence);
  answers_.reply_to(wait.process, wait.node, Reply::integer_reply(acknowledged), std::move(wait.pending));
}

void Replication::wake_waits(int master) {
  std::vector<std::uint64_t> ready;
  for (const auto& [id, wait] : waits_) {
    if (wait.node == master && acknowledged_replicas(master, wait.target_sequence) >= wait.numreplicas) {
      ready.push_back(id);
    }
  }
  for (const std::uint64_t id : ready) finish_wait(id);
}

void Replication::drop_waits(int node_id) {
  // Only a master that went down (crashed, or fenced by a failover) loses its blocked WAITs.
  LOCKCHECK_ASSERT(!nodes_.at(static_cast<std::size_t>(node_id))->up());
  for (auto it = waits_.begin(); it != waits_.end();) {
    if (it->second.node != node_id) {
      ++it;
      continue;
    }
    // The connection breaks: the client learns that something went wrong, not what WAIT would have said.
    const int process = it->second.process;
    std::shared_ptr<PendingCall> pending = std::move(it->second.pending);
    it = waits_.erase(it);
    answers_.connection_lost(process, node_id, std::move(pending),
                             fmt::format("connection to node {} lost while WAIT was blocked", node_id));
  }
}

}  // namespace lockcheck::sim
