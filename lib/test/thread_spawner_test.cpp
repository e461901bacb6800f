// The production Spawner's thread pool: tasks run concurrently, handles wait for their task, threads are
// reused, a task may drop the last handle to itself, and destroying the spawner waits for running tasks.
// Built into lockcheck_hardening_tests so that tools/test also runs it under ThreadSanitizer.
#include <gtest/gtest.h>

#include <atomic>
#include <latch>
#include <memory>
#include <thread>
#include <vector>

#include "lockcheck/thread_spawner.hpp"

namespace lockcheck {
namespace {

Task<void> count_up(std::atomic<int>* counter) {
  counter->fetch_add(1);
  co_return;
}

// Blocks its pool thread until `release` opens, after checking in at `started`.
Task<void> wait_at(std::latch* started, std::latch* release, std::atomic<int>* finished) {
  started->count_down();
  release->wait();
  finished->fetch_add(1);
  co_return;
}

TEST(ThreadSpawner, JoinWaitsForTheTaskAndReportsItFinished) {
  ThreadSpawner spawner;
  std::atomic<int> counter{0};
  std::shared_ptr<Spawned> handle = spawner.spawn(count_up(&counter));
  run_sync(handle->join());
  EXPECT_TRUE(handle->finished());
  EXPECT_EQ(counter.load(), 1);
}

TEST(ThreadSpawner, ReusesAThreadOnceItsTaskFinished) {
  ThreadSpawner spawner;
  std::atomic<int> counter{0};
  for (int round = 0; round < 20; ++round) {
    std::shared_ptr<Spawned> handle = spawner.spawn(count_up(&counter));
    run_sync(handle->join());
    EXPECT_EQ(spawner.thread_count(), 1u) << "round " << round;
  }
  EXPECT_EQ(counter.load(), 20);
}

TEST(ThreadSpawner, RunsTasksAtTheSameTime) {
  constexpr int kTasks = 4;
  ThreadSpawner spawner;
  std::latch started(kTasks);
  std::latch release(1);
  std::atomic<int> finished{0};
  std::vector<std::shared_ptr<Spawned>> handles;
  for (int i = 0; i < kTasks; ++i) handles.push_back(spawner.spawn(wait_at(&started, &release, &finished)));
  started.wait();  // would never return if the tasks had to take turns
  EXPECT_EQ(spawner.thread_count(), static_cast<std::size_t>(kTasks));
  EXPECT_EQ(finished.load(), 0);
  release.count_down();
  for (auto& handle : handles) run_sync(handle->join());
  EXPECT_EQ(finished.load(), kTasks);
}

TEST(ThreadSpawner, DestroyingAHandleWaitsForItsTask) {
  ThreadSpawner spawner;
  std::latch started(1);
  std::latch release(1);
  std::atomic<int> finished{0};
  std::shared_ptr<Spawned> handle = spawner.spawn(wait_at(&started, &release, &finished));
  started.wait();
  std::thread opener([&] { release.count_down(); });
  handle.reset();  // returns only after the task ran to its end
  EXPECT_EQ(finished.load(), 1);
  opener.join();
}

Task<void> drop_own_handle(std::latch* handed_over, std::shared_ptr<std::shared_ptr<Spawned>> self,
                           std::atomic<int>* finished) {
  handed_over->wait();
  self->reset();  // the last handle: its destructor runs on this task's own thread and must not wait for it
  finished->fetch_add(1);
  co_return;
}

TEST(ThreadSpawner, ATaskMayDropTheLastHandleToItself) {
  std::atomic<int> finished{0};
  {
    ThreadSpawner spawner;
    std::latch handed_over(1);
    auto self = std::make_shared<std::shared_ptr<Spawned>>();
    *self = spawner.spawn(drop_own_handle(&handed_over, self, &finished));
    handed_over.count_down();
  }  // the spawner's destructor joins the pool thread: a deadlock in the task would hang here
  EXPECT_EQ(finished.load(), 1);
}

TEST(ThreadSpawner, DestructorWaitsForRunningTasks) {
  std::latch started(2);
  std::latch release(1);
  std::atomic<int> finished{0};
  std::thread opener;
  std::shared_ptr<Spawned> first, second;  // handles may outlive the spawner
  {
    ThreadSpawner spawner;
    first = spawner.spawn(wait_at(&started, &release, &finished));
    second = spawner.spawn(wait_at(&started, &release, &finished));
    started.wait();
    opener = std::thread([&] { release.count_down(); });
  }
  EXPECT_EQ(finished.load(), 2);
  EXPECT_TRUE(first->finished());
  EXPECT_TRUE(second->finished());
  opener.join();
}

}  // namespace
}  // namespace lockcheck
