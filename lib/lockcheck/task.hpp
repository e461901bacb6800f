#pragma once
// A small C++20 coroutine task: lazy, single-owner, awaitable, with symmetric transfer.
//
// Lock algorithms are written as Task-returning coroutines over the seams (Port, Clock, Entropy).
// In production every seam completes synchronously, so run_sync() drives a task to completion on
// the calling thread. In simulation the seams suspend and the simulator's scheduler resumes them
// later in virtual time; destroying a suspended top-level task (a crashed process) destroys the
// whole chain of frames beneath it.
#include <coroutine>
#include <cstddef>
#include <exception>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace lockcheck {

template <typename T = void>
class Task;

namespace detail {

struct PromiseBase {
  std::coroutine_handle<> continuation = std::noop_coroutine();
  std::exception_ptr exception;

  struct FinalAwaiter {
    bool await_ready() const noexcept { return false; }
    template <typename Promise>
    std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> handle) const noexcept {
      return handle.promise().continuation;
    }
    void await_resume() const noexcept {}
  };

  std::suspend_always initial_suspend() const noexcept { return {}; }
  FinalAwaiter final_suspend() const noexcept { return {}; }
  void unhandled_exception() noexcept { exception = std::current_exception(); }
  void rethrow_if_failed() const {
    if (exception) std::rethrow_exception(exception);
  }
};

template <typename T>
struct Promise : PromiseBase {
  std::optional<T> value;
  Task<T> get_return_object() noexcept;
  template <typename U>
  void return_value(U&& result) {
    value.emplace(std::forward<U>(result));
  }
  T take() {
    rethrow_if_failed();
    return std::move(*value);
  }
};

template <>
struct Promise<void> : PromiseBase {
  Task<void> get_return_object() noexcept;
  void return_void() const noexcept {}
  void take() const { rethrow_if_failed(); }
};

}  // namespace detail

template <typename T>
class [[nodiscard]] Task {
 public:
  using promise_type = detail::Promise<T>;
  using Handle = std::coroutine_handle<promise_type>;

  Task() = default;
  explicit Task(Handle handle) : handle_(handle) {}
  Task(Task&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
  Task& operator=(Task&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, {});
    }
    return *this;
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() { reset(); }

  bool valid() const noexcept { return static_cast<bool>(handle_); }
  bool done() const noexcept { return handle_ && handle_.done(); }

  // Runs the task until its first suspension (or completion). For top-level tasks only.
  void start() { handle_.resume(); }
  // The result of a finished task; rethrows what the coroutine threw.
  T result() { return handle_.promise().take(); }
  // Destroys the frame (and every frame it awaits), as when a process crashes.
  void reset() noexcept {
    if (handle_) std::exchange(handle_, {}).destroy();
  }

  auto operator co_await() && noexcept {
    struct Awaiter {
      Handle handle;
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiting) noexcept {
        handle.promise().continuation = awaiting;
        return handle;
      }
      T await_resume() { return handle.promise().take(); }
    };
    return Awaiter{handle_};
  }

 private:
  Handle handle_;
};

namespace detail {
template <typename T>
Task<T> Promise<T>::get_return_object() noexcept {
  return Task<T>{std::coroutine_handle<Promise<T>>::from_promise(*this)};
}
inline Task<void> Promise<void>::get_return_object() noexcept {
  return Task<void>{std::coroutine_handle<Promise<void>>::from_promise(*this)};
}
}  // namespace detail

// Drives a task whose every await completes synchronously (the production seams) and returns its value.
template <typename T>
T run_sync(Task<T> task) {
  task.start();
  if (!task.done()) {
    throw std::logic_error("lockcheck::run_sync: task suspended on a seam that does not complete synchronously");
  }
  return task.result();
}

namespace detail {

// One child of when_all: awaits its task, stores the outcome, and resumes the parent when it is the last.
struct WhenAllChild {
  struct promise_type {
    std::size_t* remaining = nullptr;
    std::coroutine_handle<> parent;

    WhenAllChild get_return_object() noexcept {
      return WhenAllChild{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() const noexcept { return {}; }
    struct FinalAwaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> handle) const noexcept {
        auto& promise = handle.promise();
        return --*promise.remaining == 0 ? promise.parent : std::noop_coroutine();
      }
      void await_resume() const noexcept {}
    };
    FinalAwaiter final_suspend() const noexcept { return {}; }
    void return_void() const noexcept {}
    void unhandled_exception() const noexcept { std::terminate(); }  // children catch everything themselves
  };
  std::coroutine_handle<promise_type> handle;
};

template <typename T>
WhenAllChild run_child(Task<T> task, std::optional<T>& slot, std::exception_ptr& error) {
  try {
    slot.emplace(co_await std::move(task));
  } catch (...) {
    error = std::current_exception();
  }
}

inline WhenAllChild run_child(Task<void> task, std::exception_ptr& error) {
  try {
    co_await std::move(task);
  } catch (...) {
    error = std::current_exception();
  }
}

template <typename T>
struct WhenAllAwaiter {
  std::vector<Task<T>> tasks;
  std::vector<std::optional<T>> slots;
  std::vector<std::exception_ptr> errors;
  std::vector<WhenAllChild> children;
  // One extra count keeps the parent from being resumed while children are still being started.
  std::size_t remaining = 0;

  explicit WhenAllAwaiter(std::vector<Task<T>> input) : tasks(std::move(input)), slots(tasks.size()), errors(tasks.size()) {}
  WhenAllAwaiter(WhenAllAwaiter&&) = delete;
  ~WhenAllAwaiter() {
    for (auto& child : children) child.handle.destroy();
  }

  bool await_ready() const noexcept { return tasks.empty(); }
  bool await_suspend(std::coroutine_handle<> parent) {
    remaining = tasks.size() + 1;
    children.reserve(tasks.size());
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      children.push_back(run_child(std::move(tasks[i]), slots[i], errors[i]));
      auto& promise = children.back().handle.promise();
      promise.remaining = &remaining;
      promise.parent = parent;
      children.back().handle.resume();
    }
    return --remaining != 0;
  }
  std::vector<T> await_resume() {
    for (auto& error : errors) {
      if (error) std::rethrow_exception(error);
    }
    std::vector<T> results;
    results.reserve(slots.size());
    for (auto& slot : slots) results.push_back(std::move(*slot));
    return results;
  }
};

}  // namespace detail

// Runs every task concurrently and resumes when all have finished; results keep the input order.
// If any task threw, the first exception (in input order) is rethrown after all have finished.
template <typename T>
Task<std::vector<T>> when_all(std::vector<Task<T>> tasks) {
  co_return co_await detail::WhenAllAwaiter<T>(std::move(tasks));
}

}  // namespace lockcheck
