#pragma once
// Seams for tests that run lock code without a simulator or a server: a clock whose time moves only when the
// code under test sleeps, and a spawner that runs spawned work to its end at once.
#include <cstdint>
#include <memory>

#include "lockcheck/clock.hpp"
#include "lockcheck/spawner.hpp"
#include "lockcheck/stop_signal.hpp"
#include "lockcheck/task.hpp"

namespace lockcheck::testing {

// Virtual time that a sleep advances at once.
class StepClock final : public Clock {
 public:
  MonoTime monotonic_now() override { return MonoTime(now_us); }
  Millis wall_now() override { return Millis(now_us / 1000); }
  Task<void> sleep(Micros duration) override {
    now_us += duration.count();
    co_return;
  }
  Task<void> sleep_unless_stopped(Micros duration, StopSignal& stop) override {
    if (!stop.requested()) now_us += duration.count();
    co_return;
  }
  std::int64_t now_us = 0;
};

// Runs a spawned task to its end at once: the test's seams never suspend.
class InlineSpawner final : public Spawner {
 public:
  std::shared_ptr<Spawned> spawn(Task<void> task) override {
    run_sync(std::move(task));
    return std::make_shared<Done>();
  }

 private:
  struct Done final : Spawned {
    Task<void> join() override { co_return; }
    bool finished() const override { return true; }
  };
};

}  // namespace lockcheck::testing
