#include "core/scheduler.hpp"

#include <algorithm>

namespace lockcheck::sim {

void Scheduler::at(TrueTime when, Action action) {
  std::uint32_t slot = 0;
  if (free_slots_.empty()) {
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.push_back(std::move(action));
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
    slots_[slot] = std::move(action);
  }
  // An event in the past runs now: time never goes backwards.
  const Key key{when < now_ ? now_ : when, next_sequence_++, slot};
  if (lane_.empty() || !later(lane_.back(), key)) {
    lane_.push_back(key);
    return;
  }
  queue_.push_back(key);
  std::push_heap(queue_.begin(), queue_.end(), Later{});
}

const Scheduler::Key* Scheduler::earliest() const {
  if (queue_.empty()) return lane_.empty() ? nullptr : &lane_.front();
  if (lane_.empty() || later(lane_.front(), queue_.front())) return &queue_.front();
  return &lane_.front();
}

std::uint64_t Scheduler::run_until(TrueTime end, std::uint64_t max_events) {
  std::uint64_t ran = 0;
  for (const Key* next = earliest(); next != nullptr && ran < max_events && next->when <= end; next = earliest()) {
    const Key key = *next;
    if (next == queue_.data()) {  // lane_ never holds a key inside queue_
      std::pop_heap(queue_.begin(), queue_.end(), Later{});
      queue_.pop_back();
    } else {
      lane_.pop_front();
    }
    // Out of its slot before it runs: the action may schedule more, which may grow slots_.
    Action action = std::move(slots_[key.slot]);
    free_slots_.push_back(key.slot);
    now_ = key.when;
    action();
    ++ran;
    ++events_run_;
  }
  if (const Key* next = earliest(); next == nullptr || next->when > end) now_ = end > now_ ? end : now_;
  return ran;
}

}  // namespace lockcheck::sim
