#include "core/call_deadlines.hpp"

#include "lockcheck/assert.hpp"

namespace lockcheck::sim {

void CallDeadlines::add(ClientProcess& process, TrueTime deadline_us, int node, std::shared_ptr<PendingCall> pending) {
  LOCKCHECK_ASSERT(calls_.empty() || calls_.back().deadline_us <= deadline_us);  // sent in time order
  calls_.push_back({deadline_us, &process, process.epoch(), node, std::move(pending)});
  arm();
}

void CallDeadlines::arm() {
  if (armed_ || firing_) return;
  while (!calls_.empty() && calls_.front().pending->settled) calls_.pop_front();
  if (calls_.empty()) return;
  armed_ = true;
  const TrueTime due_us = calls_.front().deadline_us;
  scheduler_.at(due_us, [this, due_us] { fire(due_us); });
}

void CallDeadlines::fire(TrueTime due_us) {
  LOCKCHECK_ASSERT(armed_ && scheduler_.now() == due_us);  // armed once, at the deadline it is for
  armed_ = false;
  firing_ = true;
  // The calls due now, counted first: what they resume may send more, and those wait for their own deadline.
  std::size_t due = 0;
  while (due < calls_.size() && calls_[due].deadline_us <= due_us) ++due;
  for (std::size_t taken = 0; taken < due; ++taken) {
    Call call = std::move(calls_.front());
    calls_.pop_front();
    ClientProcess& process = *call.process;
    // Settled, or sent by an incarnation that has crashed since (its calls died with it): nothing to time out.
    if (call.pending->settled || !process.alive() || process.epoch() != call.epoch) continue;
    process.run_or_hold([this, id = process.id(), node = call.node, pending = std::move(call.pending)] {
      if (!pending->settled) timed_out_(id, node, *pending);
    });
  }
  firing_ = false;
  arm();
}

}  // namespace lockcheck::sim
