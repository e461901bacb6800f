#include "core/scheduler.hpp"

namespace lockcheck::sim {

void Scheduler::at(TrueTime when, std::function<void()> action) {
  // An event in the past runs now: time never goes backwards.
  queue_.push(Event{when < now_ ? now_ : when, next_sequence_++, std::move(action)});
}

std::uint64_t Scheduler::run_until(TrueTime end, std::uint64_t max_events) {
  std::uint64_t ran = 0;
  while (!queue_.empty() && ran < max_events && queue_.top().when <= end) {
    // Moving out of the top of a priority_queue needs a const_cast; the element is popped right after.
    Event event = std::move(const_cast<Event&>(queue_.top()));
    queue_.pop();
    now_ = event.when;
    event.action();
    ++ran;
    ++events_run_;
  }
  if (queue_.empty() || queue_.top().when > end) now_ = end > now_ ? end : now_;
  return ran;
}

}  // namespace lockcheck::sim
