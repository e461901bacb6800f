#include "lockcheck/stop_signal.hpp"

#include <utility>
#include <vector>

namespace lockcheck {

void StopSignal::request() {
  std::map<std::uint64_t, std::function<void()>> wakes;
  {
    std::lock_guard lock(mutex_);
    if (requested_) return;
    requested_ = true;
    wakes = std::exchange(wakes_, {});
  }
  changed_.notify_all();
  // Outside the mutex: a wake-up may call back into this signal (cancel, requested).
  for (auto& [id, wake] : wakes) wake();
}

bool StopSignal::requested() const {
  std::lock_guard lock(mutex_);
  return requested_;
}

std::uint64_t StopSignal::on_request(std::function<void()> wake) {
  {
    std::lock_guard lock(mutex_);
    if (!requested_) {
      const std::uint64_t id = next_id_++;
      wakes_.emplace(id, std::move(wake));
      return id;
    }
  }
  wake();
  return 0;
}

void StopSignal::cancel(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  wakes_.erase(id);
}

bool StopSignal::wait_for(Micros timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [this] { return requested_; });
}

}  // namespace lockcheck
