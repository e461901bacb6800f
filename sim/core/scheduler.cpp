#include "core/scheduler.hpp"
#include "lockcheck/assert.hpp"

#include <algorithm>

namespace lockcheck::sim {

std::uint32_t Scheduler::take_slot() {
  if (!free_slots_.empty()) {
    const std::uint32_t slot = free_slots_.back();
    free_slots_.pop_back();
    return slot;
  }
  if (slot_count_ % kSlotsPerChunk == 0) slot_chunks_.push_back(std::make_unique<Action[]>(kSlotsPerChunk));
  return slot_count_++;
}

void Scheduler::enqueue(TrueTime when, std::uint32_t slot) {
  LOCKCHECK_ASSERT(slot < slot_count_ && slot_action(slot));  // an event runs what its slot holds: never nothing
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

void Scheduler::advance_to(TrueTime when) {
  LOCKCHECK_ASSERT(when >= now_);  // true time never goes back
  now_ = when;
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
    advance_to(key.when);
    {
      // Run in its slot, which is freed after the action ran (or threw): what it schedules takes other slots.
      struct FreeSlot {
        Scheduler& scheduler;
        std::uint32_t slot;
        ~FreeSlot() {
          scheduler.slot_action(slot).reset();
          scheduler.free_slots_.push_back(slot);
        }
      } free_slot{*this, key.slot};
      slot_action(key.slot)();
    }
    ++ran;
    ++events_run_;
  }
  if (const Key* next = earliest(); next == nullptr || next->when > end) advance_to(end > now_ ? end : now_);
  // Every event due by `end` ran, unless the budget ran out first.
  LOCKCHECK_ASSERT(ran == max_events || earliest() == nullptr || earliest()->when > end);
  return ran;
}

}  // namespace lockcheck::sim
