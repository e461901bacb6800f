// Blocking pops (BLPOP, BRPOP, BLMOVE, BZPOPMIN, ...) on a simulated node. The mock parks the client and
// answers later through its unblock sink; the world keeps the client's pending call until then and sends
// the late reply through the network like any other. A timeout is a scheduler event at the node-clock
// time of the earliest deadline (the node's drift and offset count, as for every timer of that node).
// The client's own command timeout still applies: a pop blocked longer than it fails as unknown.
#include "core/blocking_pops.hpp"

#include <algorithm>

#include "lockcheck/assert.hpp"

namespace lockcheck::sim {

void BlockingPops::park(int process, int node_id, std::shared_ptr<PendingCall> pending) {
  parked_[{node_id, process}] = std::move(pending);
  schedule_timeout(node_id);
}

// One event at the earliest deadline; each event schedules the next, so every deadline gets its turn (an
// extra event finds nothing due and changes nothing).
void BlockingPops::schedule_timeout(int node_id) {
  SimNode& node = *nodes_[static_cast<std::size_t>(node_id)];
  const std::optional<std::int64_t> deadline_ms = node.next_block_deadline_ms();
  // Only a live node holds blocked clients: a crash closes every connection, and with it every block.
  LOCKCHECK_ASSERT(!deadline_ms || node.up());
  if (!deadline_ms) return;  // timeout 0 only: until served or the connection closes
  ClockModel& clock = node.clock();
  const std::int64_t wait_ms = std::max<std::int64_t>(*deadline_ms - node.node_time_ms(), 0);
  const TrueTime at = clock.true_time_of(clock.monotonic_at(scheduler_.now()) + wait_ms * 1000);
  scheduler_.at(at, [this, node_id] {
    nodes_[static_cast<std::size_t>(node_id)]->expire_blocked();
    send_late_replies(node_id);
    schedule_timeout(node_id);
  });
}

void BlockingPops::send_late_replies(int node_id) {
  for (auto& [process, reply] : nodes_[static_cast<std::size_t>(node_id)]->take_late_replies()) {
    auto it = parked_.find({node_id, process});
    if (it == parked_.end()) continue;  // the client's connection went away meanwhile
    std::shared_ptr<PendingCall> pending = std::move(it->second);
    parked_.erase(it);
    replies_.reply_to(process, node_id, std::move(reply), std::move(pending));
  }
}

}  // namespace lockcheck::sim
