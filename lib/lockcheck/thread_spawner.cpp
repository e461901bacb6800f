#include "lockcheck/thread_spawner.hpp"

#include <condition_variable>
#include <deque>
#include <list>
#include <mutex>
#include <thread>

namespace lockcheck {
namespace {

// What a handle and the thread running its task share.
struct TaskState {
  std::mutex mutex;
  std::condition_variable done_cv;
  bool done = false;
  std::thread::id runner;  // the pool thread running the task, once it started

  void finish() {
    std::lock_guard lock(mutex);
    done = true;
    done_cv.notify_all();
  }
  bool finished() {
    std::lock_guard lock(mutex);
    return done;
  }
  void wait_done() {
    std::unique_lock lock(mutex);
    // A task that drops the last handle to itself is finishing on this very thread: waiting would never end.
    if (runner == std::this_thread::get_id()) return;
    done_cv.wait(lock, [&] { return done; });
  }
};

class PooledTask final : public Spawned {
 public:
  explicit PooledTask(std::shared_ptr<TaskState> state) : state_(std::move(state)) {}
  // Waiting here keeps the task from outliving what it points into, as joining a thread did.
  ~PooledTask() override { state_->wait_done(); }

  Task<void> join() override {
    state_->wait_done();
    co_return;
  }
  bool finished() const override { return state_->finished(); }

 private:
  std::shared_ptr<TaskState> state_;
};

struct Job {
  Task<void> task;
  std::shared_ptr<TaskState> state;
};

}  // namespace

struct ThreadSpawner::Pool {
  struct Worker {
    std::thread thread;
    bool exited = false;  // set by the worker itself, under `mutex`, as its last step
  };

  explicit Pool(std::size_t max_idle) : max_idle_threads(max_idle) {}

  std::mutex mutex;
  std::condition_variable work_cv;
  std::deque<Job> jobs;
  std::list<Worker> workers;
  std::size_t idle = 0;
  bool stopping = false;
  const std::size_t max_idle_threads;

  // Runs jobs until the pool stops or there are enough idle threads without this one. Every pass runs one
  // job to its end; the thread's lifetime is the pool's, so the loop is bounded by the pool being stopped.
  void work(Worker& self) {
    std::unique_lock lock(mutex);
    for (;;) {
      work_cv.wait(lock, [&] { return stopping || !jobs.empty(); });
      if (jobs.empty()) break;  // stopping, nothing left to run
      Job job = std::move(jobs.front());
      jobs.pop_front();
      --idle;
      lock.unlock();
      {
        std::lock_guard state_lock(job.state->mutex);
        job.state->runner = std::this_thread::get_id();
      }
      try {
        run_sync(std::move(job.task));
      } catch (...) {
        // Spawned work reports through its own state; an escaped exception has nobody to go to.
      }
      job.task = Task<void>{};  // the frame goes before anyone learns the task finished
      // Counted idle before the task is reported finished, so a spawn right after a join reuses this thread.
      lock.lock();
      const bool stay = !stopping && idle < max_idle_threads;
      if (stay) ++idle;
      lock.unlock();
      job.state->finish();
      job = Job{};
      lock.lock();
      if (!stay) break;
    }
    self.exited = true;
  }

  // Joins the threads that have left their loop. Called with `mutex` held; they only need it to exit, and
  // they set `exited` as their last step under it, so join() here returns at once.
  void reap_exited() {
    for (auto it = workers.begin(); it != workers.end();) {
      if (!it->exited) {
        ++it;
        continue;
      }
      it->thread.join();
      it = workers.erase(it);
    }
  }
};

ThreadSpawner::ThreadSpawner(std::size_t max_idle_threads) : pool_(std::make_unique<Pool>(max_idle_threads)) {}

ThreadSpawner::~ThreadSpawner() {
  {
    std::lock_guard lock(pool_->mutex);
    pool_->stopping = true;
  }
  pool_->work_cv.notify_all();
  // Each worker finishes its task (jobs still queued run too) and leaves; std::list keeps `Worker&` stable.
  for (Pool::Worker& worker : pool_->workers) worker.thread.join();
}

std::shared_ptr<Spawned> ThreadSpawner::spawn(Task<void> task) {
  auto state = std::make_shared<TaskState>();
  std::unique_lock lock(pool_->mutex);
  pool_->reap_exited();
  pool_->jobs.push_back(Job{std::move(task), state});
  if (pool_->idle >= pool_->jobs.size()) {
    lock.unlock();
    pool_->work_cv.notify_one();
  } else {
    Pool::Worker& worker = pool_->workers.emplace_back();
    ++pool_->idle;  // counted idle until it takes a job, like every waiting worker
    Pool* pool = pool_.get();
    try {
      worker.thread = std::thread([pool, &worker] { pool->work(worker); });
    } catch (...) {
      --pool_->idle;
      pool_->workers.pop_back();
      pool_->jobs.pop_back();
      throw;
    }
  }
  return std::make_shared<PooledTask>(std::move(state));
}

std::size_t ThreadSpawner::thread_count() const {
  std::lock_guard lock(pool_->mutex);
  std::size_t alive = 0;
  for (const Pool::Worker& worker : pool_->workers) alive += worker.exited ? 0 : 1;
  return alive;
}

}  // namespace lockcheck
