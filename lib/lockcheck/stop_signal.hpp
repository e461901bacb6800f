#pragma once
// A one-way "stop now" flag shared between a lock holder and its background renewal loop (watchdog).
//
// request() is thread-safe and wakes whoever sleeps on the signal: a production renewal thread blocked in
// SystemClock::sleep_unless_stopped() (through the condition variable), or a simulated coroutine (through
// the wake-up callbacks its clock registered). Once requested it stays requested.
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

#include "lockcheck/time.hpp"

namespace lockcheck {

class StopSignal {
 public:
  StopSignal() = default;
  StopSignal(const StopSignal&) = delete;
  StopSignal& operator=(const StopSignal&) = delete;

  void request();
  bool requested() const;

  // Runs `wake` once when stop is requested (at once, here, if it already was). Returns an id for cancel().
  std::uint64_t on_request(std::function<void()> wake);
  void cancel(std::uint64_t id);

  // Blocks the calling thread until stop is requested or `timeout` has passed; true when requested.
  // For production clocks only: the simulator never blocks a thread.
  bool wait_for(Micros timeout);

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool requested_ = false;
  std::uint64_t next_id_ = 1;
  std::map<std::uint64_t, std::function<void()>> wakes_;
};

}  // namespace lockcheck
