#pragma once
// The single-threaded event loop: events run in (true time, sequence number) order, and true time jumps
// straight to the next event. Nothing else in the simulator decides what happens when.
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace lockcheck::sim {

// True time, in microseconds since the start of the run: the time no simulated process can read.
using TrueTime = std::int64_t;

class Scheduler {
 public:
  TrueTime now() const { return now_; }
  std::uint64_t events_run() const { return events_run_; }
  bool empty() const { return queue_.empty(); }

  void at(TrueTime when, std::function<void()> action);
  void after(std::int64_t delay_us, std::function<void()> action) { at(now_ + delay_us, std::move(action)); }

  // Runs events up to and including time `end`, at most `max_events` of them; returns how many ran.
  std::uint64_t run_until(TrueTime end, std::uint64_t max_events);

 private:
  struct Event {
    TrueTime when;
    std::uint64_t sequence;
    std::function<void()> action;
  };
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.when != b.when ? a.when > b.when : a.sequence > b.sequence;
    }
  };

  TrueTime now_ = 0;
  std::uint64_t next_sequence_ = 0;
  std::uint64_t events_run_ = 0;
  std::priority_queue<Event, std::vector<Event>, Later> queue_;
};

}  // namespace lockcheck::sim
