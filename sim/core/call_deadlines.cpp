#include "core/call_deadlines.hpp"

#include "lockcheck/assert.hpp"

namespace lockcheck::sim {

CallDeadlines::Queue& CallDeadlines::queue_of(const ClientProcess& process) {
  const auto id = static_cast<std::size_t>(process.id());
  if (id >= queues_.size()) queues_.resize(id + 1);
  return queues_[id];
}

void CallDeadlines::add(ClientProcess& process, TrueTime deadline_us, int node, std::shared_ptr<PendingCall> pending) {
  Queue& queue = queue_of(process);
  if (queue.epoch != process.epoch()) {
    // Calls of an earlier incarnation never time out (they died with it); its armed event, if any, finds the
    // epoch changed and does nothing.
    queue.calls.clear();
    queue.epoch = process.epoch();
    queue.armed = false;
  }
  LOCKCHECK_ASSERT(queue.calls.empty() || queue.calls.back().deadline_us <= deadline_us);  // sent in time order
  queue.calls.push_back({deadline_us, node, std::move(pending)});
  arm(process);
}

void CallDeadlines::arm(ClientProcess& process) {
  Queue& queue = queue_of(process);
  if (queue.armed || queue.firing) return;
  while (!queue.calls.empty() && queue.calls.front().pending->settled) queue.calls.pop_front();
  if (queue.calls.empty()) return;
  queue.armed = true;
  const TrueTime due_us = queue.calls.front().deadline_us;
  scheduler_.at(due_us, [this, &process, epoch = queue.epoch, due_us] { fire(process, epoch, due_us); });
}

void CallDeadlines::fire(ClientProcess& process, std::uint64_t epoch, TrueTime due_us) {
  Queue& queue = queue_of(process);
  if (epoch != queue.epoch) return;  // armed for an earlier incarnation: add() disarmed it
  queue.armed = false;
  LOCKCHECK_ASSERT(scheduler_.now() == due_us);  // armed at the deadline it is for
  if (!process.alive() || process.epoch() != epoch) {
    queue.calls.clear();  // a crashed process's calls never time out
    return;
  }
  queue.firing = true;
  // The calls due now, counted first: what they resume may send more, and those wait for their own deadline.
  std::size_t due = 0;
  while (due < queue.calls.size() && queue.calls[due].deadline_us <= due_us) ++due;
  for (std::size_t taken = 0; taken < due; ++taken) {
    Queue& current = queue_of(process);  // a call's resumption may have grown queues_
    Call call = std::move(current.calls.front());
    current.calls.pop_front();
    if (call.pending->settled) continue;
    const int id = process.id();
    process.run_or_hold([this, id, node = call.node, pending = std::move(call.pending)] {
      if (!pending->settled) timed_out_(id, node, *pending);
    });
  }
  queue_of(process).firing = false;
  arm(process);
}

}  // namespace lockcheck::sim
