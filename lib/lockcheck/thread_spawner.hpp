#pragma once
// The production Spawner: spawned tasks run on a small pool of reusable threads, each task driven by
// run_sync() over the production seams. A task's seams must be thread-safe (HiredisPort serialises calls
// per port; SystemClock has no state).
//
// Why a pool: a watchdog spawns its renewal loop on every acquire, and creating a thread there put a
// clone() and the new thread's first scheduling on the hand-off path of every contended lock. A task
// occupies its thread until it finishes (renewal loops sleep on a condition variable between renewals), so
// the pool grows to the number of tasks running at once; a thread that finishes its task waits for the
// next one, and at most `max_idle_threads` wait at a time (the others exit).
#include <cstddef>
#include <memory>

#include "lockcheck/spawner.hpp"

namespace lockcheck {

class ThreadSpawner final : public Spawner {
 public:
  explicit ThreadSpawner(std::size_t max_idle_threads = 2);
  // Waits for the tasks still running (their owners stop them: a WatchdogLock stops its loops when it is
  // destroyed, so declare the spawner before the locks that use it) and joins every thread.
  ~ThreadSpawner() override;
  ThreadSpawner(const ThreadSpawner&) = delete;
  ThreadSpawner& operator=(const ThreadSpawner&) = delete;

  std::shared_ptr<Spawned> spawn(Task<void> task) override;

  // Threads alive now (running a task or waiting for one); for tests and diagnostics.
  std::size_t thread_count() const;

 private:
  struct Pool;
  std::unique_ptr<Pool> pool_;
};

}  // namespace lockcheck
