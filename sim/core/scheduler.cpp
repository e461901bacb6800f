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
  queue_.push_back(Key{when < now_ ? now_ : when, next_sequence_++, slot});
  std::push_heap(queue_.begin(), queue_.end(), later);
}

std::uint64_t Scheduler::run_until(TrueTime end, std::uint64_t max_events) {
  std::uint64_t ran = 0;
  while (!queue_.empty() && ran < max_events && queue_.front().when <= end) {
    std::pop_heap(queue_.begin(), queue_.end(), later);
    const Key key = queue_.back();
    queue_.pop_back();
    // Out of its slot before it runs: the action may schedule more, which may grow slots_.
    Action action = std::move(slots_[key.slot]);
    free_slots_.push_back(key.slot);
    now_ = key.when;
    action();
    ++ran;
    ++events_run_;
  }
  if (queue_.empty() || queue_.front().when > end) now_ = end > now_ ? end : now_;
  return ran;
}

}  // namespace lockcheck::sim
