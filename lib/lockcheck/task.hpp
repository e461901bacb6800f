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
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>
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

// Whoever owns the children of a when_all / when_enough: told when each ends, it says whom to resume.
struct ChildOwner {
  virtual std::coroutine_handle<> child_finished() noexcept = 0;

 protected:
  ~ChildOwner() = default;
};

// One child of when_all / when_enough: awaits its task and stores the outcome (the coroutine body does);
// at its end it asks its owner whether to resume the parent. Its frame is destroyed by the owner.
struct Child {
  struct promise_type {
    ChildOwner* owner = nullptr;

    Child get_return_object() noexcept { return Child{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() const noexcept { return {}; }
    struct FinalAwaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> handle) const noexcept {
        return handle.promise().owner->child_finished();
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
Child run_child(Task<T> task, std::optional<T>& slot, std::exception_ptr& error) {
  try {
    slot.emplace(co_await std::move(task));
  } catch (...) {
    error = std::current_exception();
  }
}

inline Child run_child(Task<void> task, std::exception_ptr& error) {
  try {
    co_await std::move(task);
  } catch (...) {
    error = std::current_exception();
  }
}

template <typename T>
struct WhenAllAwaiter final : ChildOwner {
  std::vector<Task<T>> tasks;
  std::vector<std::optional<T>> slots;
  std::vector<std::exception_ptr> errors;
  std::vector<Child> children;
  std::coroutine_handle<> parent;
  // One extra count keeps the parent from being resumed while children are still being started.
  std::size_t remaining = 0;

  explicit WhenAllAwaiter(std::vector<Task<T>> input) : tasks(std::move(input)), slots(tasks.size()), errors(tasks.size()) {}
  WhenAllAwaiter(WhenAllAwaiter&&) = delete;
  ~WhenAllAwaiter() {
    for (auto& child : children) child.handle.destroy();
  }
  std::coroutine_handle<> child_finished() noexcept override {
    return --remaining == 0 ? parent : std::noop_coroutine();
  }

  bool await_ready() const noexcept { return tasks.empty(); }
  bool await_suspend(std::coroutine_handle<> awaiting) {
    parent = awaiting;
    remaining = tasks.size() + 1;
    children.reserve(tasks.size());
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      children.push_back(run_child(std::move(tasks[i]), slots[i], errors[i]));
      children.back().handle.promise().owner = this;
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

namespace detail {

// What a Stragglers keeper holds: the shared state of one when_enough, with the children it stopped awaiting.
struct EnoughStateBase : ChildOwner {
  virtual ~EnoughStateBase() = default;
  virtual bool finished() const noexcept = 0;
};

template <typename T>
struct EnoughState final : EnoughStateBase {
  using Enough = std::function<bool(const std::vector<std::optional<T>>&)>;

  std::vector<std::optional<T>> slots;
  std::vector<std::exception_ptr> errors;
  Enough enough;
  std::vector<Child> children;
  std::size_t unfinished = 0;
  std::coroutine_handle<> parent;
  bool starting = true;         // children finishing while they are being started must not resume the parent
  bool parent_resumed = false;  // from then on `enough` (which may point into the parent's frame) is not called

  EnoughState(std::size_t count, Enough predicate) : slots(count), errors(count), enough(std::move(predicate)) {}
  ~EnoughState() override {
    for (auto& child : children) child.handle.destroy();  // unfinished ones are suspended: this ends their chains
  }
  bool finished() const noexcept override { return unfinished == 0; }
  bool decided() const {
    if (unfinished == 0) return true;
    for (const auto& error : errors) {
      if (error) return true;
    }
    return enough && enough(slots);  // without a predicate, it waits for all
  }
  std::coroutine_handle<> child_finished() noexcept override {
    --unfinished;
    if (starting || parent_resumed || !decided()) return std::noop_coroutine();
    parent_resumed = true;
    return parent;
  }
};

}  // namespace detail

// Owns the tasks a when_enough stopped awaiting, so they run to their end after the parent went on (their
// results are dropped). Destroying the keeper (or clear()) destroys the unfinished ones' frames: give it the
// lifetime of whatever those tasks use (a port owns the calls it sent), and clear it when that dies (a crashed
// simulated process, whose wake-ups will never come).
class Stragglers {
 public:
  void keep(std::shared_ptr<detail::EnoughStateBase> state) {
    prune();
    held_.push_back(std::move(state));
  }
  // How many when_enough calls still have unfinished tasks.
  std::size_t pending() {
    prune();
    return held_.size();
  }
  void clear() noexcept { held_.clear(); }

 private:
  // Finished children are suspended at their end, so destroying them here is safe.
  void prune() {
    std::erase_if(held_, [](const auto& state) { return state->finished(); });
  }
  std::vector<std::shared_ptr<detail::EnoughStateBase>> held_;
};

namespace detail {

template <typename T>
Child run_enough_child(Task<T> task, EnoughState<T>* state, std::size_t index) {
  try {
    state->slots[index].emplace(co_await std::move(task));
  } catch (...) {
    state->errors[index] = std::current_exception();
  }
}

template <typename T>
struct WhenEnoughAwaiter {
  std::vector<Task<T>> tasks;
  std::shared_ptr<EnoughState<T>> state;
  Stragglers& stragglers;

  WhenEnoughAwaiter(std::vector<Task<T>> input, typename EnoughState<T>::Enough enough, Stragglers& keeper)
      : tasks(std::move(input)), state(std::make_shared<EnoughState<T>>(tasks.size(), std::move(enough))), stragglers(keeper) {}
  WhenEnoughAwaiter(WhenEnoughAwaiter&&) = delete;

  bool await_ready() const noexcept { return tasks.empty(); }
  bool await_suspend(std::coroutine_handle<> parent) {
    state->parent = parent;
    state->unfinished = tasks.size();
    state->children.reserve(tasks.size());
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      state->children.push_back(run_enough_child(std::move(tasks[i]), state.get(), i));
      state->children.back().handle.promise().owner = state.get();
      state->children.back().handle.resume();
    }
    state->starting = false;
    if (!state->decided()) return true;
    state->parent_resumed = true;
    return false;
  }
  std::vector<std::optional<T>> await_resume() {
    state->parent_resumed = true;
    // The unfinished children outlive this frame; the keeper owns them from here.
    if (!state->finished()) stragglers.keep(state);
    for (auto& error : state->errors) {
      if (error) std::rethrow_exception(error);
    }
    std::vector<std::optional<T>> results;
    results.reserve(state->slots.size());
    for (auto& slot : state->slots) results.push_back(std::move(slot));
    return results;
  }
};

}  // namespace detail

// Runs every task concurrently and resumes as soon as `enough(results so far)` holds (nullopt: not finished
// yet), or a task threw, or all have finished. The tasks not finished by then keep running, owned by
// `stragglers`; their results are dropped, and their slots stay nullopt. If a finished task threw, the first
// exception (in input order) is rethrown. `enough` must not throw; it is not called after the parent resumed,
// so it may refer to the caller's frame.
template <typename T>
Task<std::vector<std::optional<T>>> when_enough(std::vector<Task<T>> tasks,
                                                std::type_identity_t<std::function<bool(const std::vector<std::optional<T>>&)>> enough,
                                                Stragglers& stragglers) {
  // A named awaiter, not a temporary: g++ 12 mishandles temporaries with destructors in co_await expressions.
  detail::WhenEnoughAwaiter<T> awaiter(std::move(tasks), std::move(enough), stragglers);
  co_return co_await awaiter;
}

}  // namespace lockcheck
