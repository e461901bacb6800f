#pragma once
// The production Spawner: one thread per spawned task, driven by run_sync() over the production seams.
// A task's seams must be thread-safe (HiredisPort serialises calls per port; SystemClock has no state).
#include <memory>

#include "lockcheck/spawner.hpp"

namespace lockcheck {

class ThreadSpawner final : public Spawner {
 public:
  std::shared_ptr<Spawned> spawn(Task<void> task) override;
};

}  // namespace lockcheck
