#pragma once
// The single-threaded event loop: events run in (true time, sequence number) order, and true time jumps
// straight to the next event. Nothing else in the simulator decides what happens when.
#include <cstdint>
#include <deque>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/action.hpp"

namespace lockcheck::sim {

// True time, in microseconds since the start of the run: the time no simulated process can read.
using TrueTime = std::int64_t;

class Scheduler {
 public:
  TrueTime now() const { return now_; }
  std::uint64_t events_run() const { return events_run_; }
  bool empty() const { return queue_.empty() && lane_.empty(); }

  void at(TrueTime when, Action action) {
    const std::uint32_t slot = take_slot();
    slot_action(slot) = std::move(action);
    enqueue(when, slot);
  }
  // A callable (a lambda) is built in its slot, not moved there.
  template <typename F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, Action> && std::is_invocable_v<std::remove_cvref_t<F>&>)
  void at(TrueTime when, F&& callable) {
    const std::uint32_t slot = take_slot();
    slot_action(slot).emplace(std::forward<F>(callable));
    enqueue(when, slot);
  }
  template <typename F>
  void after(std::int64_t delay_us, F&& action) {
    at(now_ + delay_us, std::forward<F>(action));
  }

  // Moves true time to `when`, never back (the run's one clock; an event due earlier runs now instead).
  void advance_to(TrueTime when);
  // Runs events up to and including time `end`, at most `max_events` of them; returns how many ran.
  std::uint64_t run_until(TrueTime end, std::uint64_t max_events);

 private:
  // The queue orders small keys; each event's action stays in its slot until it runs, so reordering the
  // queue moves 24 bytes, not a callable.
  struct Key {
    TrueTime when;
    std::uint64_t sequence;
    std::uint32_t slot;
  };
  static bool later(const Key& a, const Key& b) {
    return a.when != b.when ? a.when > b.when : a.sequence > b.sequence;
  }
  // later() as a function object: the heap algorithms then inline it (through a function pointer they called
  // it, a few times per event).
  struct Later {
    bool operator()(const Key& a, const Key& b) const { return later(a, b); }
  };

  TrueTime now_ = 0;
  std::uint64_t next_sequence_ = 0;
  std::uint64_t events_run_ = 0;
  // The next key due, from the heap or the lane (nullptr when both are empty).
  const Key* earliest() const;

  std::vector<Key> queue_;  // a binary heap under later(): the earliest key at the front
  // Keys scheduled no earlier than the lane's last one are appended here instead, in order: most events
  // (every command's timeout, one constant delay ahead) arrive so, and a FIFO costs less than the heap.
  // The next event is the earlier of the two fronts, so the run order is (time, sequence) all the same.
  std::deque<Key> lane_;

  // Each event's action, built in a slot and run there. Slots come in chunks that never move, so an action
  // runs in place while it schedules more (which may add a chunk).
  static constexpr std::uint32_t kSlotsPerChunk = 64;
  std::uint32_t take_slot();
  Action& slot_action(std::uint32_t slot) { return slot_chunks_[slot / kSlotsPerChunk][slot % kSlotsPerChunk]; }
  // Queues the event whose action is in `slot`.
  void enqueue(TrueTime when, std::uint32_t slot);
  std::vector<std::unique_ptr<Action[]>> slot_chunks_;
  std::uint32_t slot_count_ = 0;
  std::vector<std::uint32_t> free_slots_;
};

}  // namespace lockcheck::sim
