#pragma once
// The Spawner seam: work that runs beside the caller, such as a watchdog's renewal loop.
//
// Production (ThreadSpawner) runs each task on a pooled thread of its own; the simulator runs it as another coroutine
// of the same client process, so it is paused and crashed together with its holder, as a real thread is.
#include <memory>

#include "lockcheck/task.hpp"

namespace lockcheck {

// A handle to spawned work.
class Spawned {
 public:
  virtual ~Spawned() = default;
  // Resumes once the spawned task has finished (at once if it has).
  virtual Task<void> join() = 0;
  virtual bool finished() const = 0;
};

class Spawner {
 public:
  virtual ~Spawner() = default;
  // Starts `task` now, running concurrently with the caller. The task must not throw (it is a loop that
  // reports through its own state); what it throws anyway is swallowed, as it has nobody to go to.
  virtual std::shared_ptr<Spawned> spawn(Task<void> task) = 0;
};

}  // namespace lockcheck
