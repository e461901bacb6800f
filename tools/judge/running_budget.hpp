#pragma once
// A wait for an external client's reply, measured in time the worker was running. The run's pause fault
// SIGSTOPs the worker's whole process group, the client with it (workers.cpp), so time the worker was
// stopped is time the client was stopped too: not time it had to answer. The worker cannot see a stop
// directly, but it sees its consequence: a wait of at most one slice that took far longer. Such a wait counts
// as the slice plus a scheduling allowance, never more, so a pause of any length costs at most one slice of
// the budget. A worker the loaded machine starved is discounted the same way: that can only make a hang
// take longer to call, never call one early.
#include <chrono>

namespace lockcheck::judge {

class RunningBudget {
 public:
  using Clock = std::chrono::steady_clock;
  // Longest single wait: what a stop may cost the budget, with the allowance.
  static constexpr std::chrono::milliseconds kSlice{100};
  // How late a slice may end and still count in full: a busy machine's scheduling delay.
  static constexpr std::chrono::milliseconds kAllowance{100};

  RunningBudget(std::chrono::milliseconds budget, Clock::time_point now);
  // How long the next wait may take: what is left of the budget, at most one slice.
  std::chrono::milliseconds next_wait() const;
  // Counts the time from the previous count (or the start) to `now`, for a wait that asked for `asked`.
  void count(std::chrono::milliseconds asked, Clock::time_point now);
  bool spent() const { return running_ >= budget_; }
  // Time counted as running, and all the time since the start (the difference: stopped or starved).
  std::chrono::milliseconds running() const;
  std::chrono::milliseconds elapsed() const;

 private:
  std::chrono::milliseconds budget_;
  Clock::time_point started_;
  Clock::time_point last_;
  std::chrono::microseconds running_{0};  // not milliseconds: many short waits must not round to nothing
};

}  // namespace lockcheck::judge
