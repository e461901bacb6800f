#include "running_budget.hpp"

#include <algorithm>

namespace lockcheck::judge {

using std::chrono::microseconds;
using std::chrono::milliseconds;

RunningBudget::RunningBudget(milliseconds budget, Clock::time_point now) : budget_(budget), started_(now), last_(now) {}

milliseconds RunningBudget::next_wait() const {
  // Rounded up: a budget with less than a millisecond left still waits one, or a poll of 0 ms would spin.
  const auto left = std::chrono::ceil<milliseconds>(budget_ - running_);
  return std::clamp(left, milliseconds(0), kSlice);
}

void RunningBudget::count(milliseconds asked, Clock::time_point now) {
  const auto took = std::chrono::duration_cast<microseconds>(now - last_);
  last_ = now;
  running_ += std::clamp(took, microseconds(0), microseconds(asked + kAllowance));
}

milliseconds RunningBudget::running() const { return std::chrono::duration_cast<milliseconds>(running_); }

milliseconds RunningBudget::elapsed() const { return std::chrono::duration_cast<milliseconds>(last_ - started_); }

}  // namespace lockcheck::judge
