#include "lockcheck/thread_spawner.hpp"

#include <atomic>
#include <mutex>
#include <thread>

namespace lockcheck {
namespace {

class SpawnedThread final : public Spawned {
 public:
  explicit SpawnedThread(Task<void> task) {
    thread_ = std::thread([this, task = std::move(task)]() mutable {
      try {
        run_sync(std::move(task));
      } catch (...) {
        // Spawned work reports through its own state; an escaped exception has nobody to go to.
      }
      finished_ = true;
    });
  }
  // Joining here keeps the thread from outliving what it points into.
  ~SpawnedThread() override { join_thread(); }

  Task<void> join() override {
    join_thread();
    co_return;
  }
  bool finished() const override { return finished_; }

 private:
  void join_thread() {
    std::lock_guard lock(join_mutex_);
    if (!thread_.joinable()) return;
    if (thread_.get_id() == std::this_thread::get_id()) {
      thread_.detach();  // the task dropped the last handle to itself: it is finishing on this very thread
    } else {
      thread_.join();
    }
  }

  std::atomic<bool> finished_{false};
  std::mutex join_mutex_;
  std::thread thread_;
};

}  // namespace

std::shared_ptr<Spawned> ThreadSpawner::spawn(Task<void> task) { return std::make_shared<SpawnedThread>(std::move(task)); }

}  // namespace lockcheck
