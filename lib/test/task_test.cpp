// The coroutine task type: values, exceptions, nesting, when_all, when_enough, and destruction of suspended chains.
#include <gtest/gtest.h>

#include <coroutine>
#include <deque>
#include <optional>
#include <stdexcept>

#include "lockcheck/task.hpp"

namespace lockcheck {
namespace {

// A manual scheduler: awaiting `Yield` parks the coroutine until run_one() resumes it, as the simulator does.
struct ManualScheduler {
  std::deque<std::coroutine_handle<>> ready;
  struct Yield {
    ManualScheduler& scheduler;
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> handle) { scheduler.ready.push_back(handle); }
    void await_resume() const noexcept {}
  };
  Yield yield() { return Yield{*this}; }
  bool run_one() {
    if (ready.empty()) return false;
    auto handle = ready.front();
    ready.pop_front();
    handle.resume();
    return true;
  }
};

Task<int> answer() { co_return 42; }
Task<int> add_one(Task<int> inner) { co_return co_await std::move(inner) + 1; }
Task<int> fails() {
  throw std::runtime_error("boom");
  co_return 0;
}
Task<void> nothing() { co_return; }

TEST(Task, ReturnsValueThroughRunSync) { EXPECT_EQ(run_sync(answer()), 42); }

TEST(Task, NestedAwaitsComposeValues) { EXPECT_EQ(run_sync(add_one(add_one(answer()))), 44); }

TEST(Task, ExceptionsPropagateToTheAwaiter) {
  auto outer = [](Task<int> inner) -> Task<int> { co_return co_await std::move(inner); };
  EXPECT_THROW(run_sync(outer(fails())), std::runtime_error);
}

TEST(Task, VoidTaskRuns) { EXPECT_NO_THROW(run_sync(nothing())); }

TEST(Task, IsLazyUntilStartedOrAwaited) {
  bool ran = false;
  auto body = [&]() -> Task<void> {
    ran = true;
    co_return;
  };
  Task<void> task = body();
  EXPECT_FALSE(ran);
  task.start();
  EXPECT_TRUE(ran);
  EXPECT_TRUE(task.done());
}

TEST(Task, RunSyncRejectsATaskThatSuspends) {
  ManualScheduler scheduler;
  auto parked = [&]() -> Task<int> {
    co_await scheduler.yield();
    co_return 1;
  };
  EXPECT_THROW(run_sync(parked()), std::logic_error);
  scheduler.ready.clear();  // the frame was destroyed with the task; drop the dangling handle
}

TEST(Task, ResumesAfterExternalScheduling) {
  ManualScheduler scheduler;
  auto parked = [&](int value) -> Task<int> {
    co_await scheduler.yield();
    co_return value * 2;
  };
  Task<int> task = add_one(parked(5));
  task.start();
  EXPECT_FALSE(task.done());
  EXPECT_TRUE(scheduler.run_one());
  ASSERT_TRUE(task.done());
  EXPECT_EQ(task.result(), 11);
}

TEST(WhenAll, KeepsInputOrderWhateverTheCompletionOrder) {
  ManualScheduler scheduler;
  auto delayed = [&](int value, int yields) -> Task<int> {
    for (int i = 0; i < yields; ++i) co_await scheduler.yield();
    co_return value;
  };
  std::vector<Task<int>> tasks;
  tasks.push_back(delayed(1, 3));
  tasks.push_back(delayed(2, 0));
  tasks.push_back(delayed(3, 1));
  Task<std::vector<int>> all = when_all(std::move(tasks));
  all.start();
  for (int step = 0; step < 10 && !all.done(); ++step) scheduler.run_one();
  ASSERT_TRUE(all.done());
  EXPECT_EQ(all.result(), (std::vector<int>{1, 2, 3}));
}

TEST(WhenAll, CompletesSynchronouslyWhenEveryChildDoes) {
  std::vector<Task<int>> tasks;
  tasks.push_back(answer());
  tasks.push_back(answer());
  EXPECT_EQ(run_sync(when_all(std::move(tasks))), (std::vector<int>{42, 42}));
}

TEST(WhenAll, EmptyInputGivesEmptyResult) {
  EXPECT_TRUE(run_sync(when_all(std::vector<Task<int>>{})).empty());
}

TEST(WhenAll, RethrowsAfterAllChildrenFinish) {
  std::vector<Task<int>> tasks;
  tasks.push_back(answer());
  tasks.push_back(fails());
  EXPECT_THROW(run_sync(when_all(std::move(tasks))), std::runtime_error);
}

TEST(Task, DestroyingASuspendedChainRunsEveryDestructor) {
  ManualScheduler scheduler;
  int alive = 0;
  struct Tracker {
    int& count;
    explicit Tracker(int& c) : count(c) { ++count; }
    ~Tracker() { --count; }
  };
  auto leaf = [&]() -> Task<int> {
    Tracker tracker(alive);
    co_await scheduler.yield();
    co_return 1;
  };
  auto middle = [&]() -> Task<int> {
    Tracker tracker(alive);
    std::vector<Task<int>> children;
    children.push_back(leaf());
    children.push_back(leaf());
    auto values = co_await when_all(std::move(children));
    co_return values[0] + values[1];
  };
  {
    Task<int> top = middle();
    top.start();
    EXPECT_EQ(alive, 3);
    scheduler.ready.clear();  // a crashed process: its pending wake-ups are discarded...
  }                           // ...and its frames destroyed
  EXPECT_EQ(alive, 0);
}

// when_enough: a child that yields `yields` times, then returns `value`; counts live frames and finished children.
struct EnoughFixture {
  using Results = std::vector<std::optional<int>>;
  ManualScheduler scheduler;
  Stragglers stragglers;
  int alive = 0;
  int finished = 0;
  struct Tracker {
    int& count;
    explicit Tracker(int& c) : count(c) { ++count; }
    ~Tracker() { --count; }
  };
  Task<int> delayed(int value, int yields) {
    Tracker tracker(alive);
    for (int i = 0; i < yields; ++i) co_await scheduler.yield();
    ++finished;
    co_return value;
  }
  Task<int> delayed_failure(int yields) {
    for (int i = 0; i < yields; ++i) co_await scheduler.yield();
    throw std::runtime_error("boom");
    co_return 0;
  }
  // Children returning 1, 2, ... after the given numbers of yields.
  std::vector<Task<int>> children(const std::vector<int>& yields) {
    std::vector<Task<int>> tasks;
    for (std::size_t i = 0; i < yields.size(); ++i) tasks.push_back(delayed(static_cast<int>(i) + 1, yields[i]));
    return tasks;
  }
  // Starts a when_enough that holds once `needed` children have returned a value.
  Task<Results> start(std::vector<Task<int>> tasks, std::size_t needed) {
    auto at_least = [needed](const Results& results) {
      std::size_t values = 0;
      for (const auto& result : results) values += result ? 1 : 0;
      return values >= needed;
    };
    Task<Results> parent = when_enough(std::move(tasks), at_least, stragglers);
    parent.start();
    return parent;
  }
  void run_until_done(const Task<Results>& parent) {
    for (int step = 0; step < 100 && !parent.done(); ++step) scheduler.run_one();
  }
  void run_all() {
    for (int step = 0; step < 100 && scheduler.run_one(); ++step) {
    }
  }
};

TEST(WhenEnough, ResumesOnceThePredicateHoldsAndLateChildrenFinishAfterTheParentIsGone) {
  EnoughFixture fixture;
  {
    Task<EnoughFixture::Results> parent = fixture.start(fixture.children({1, 2, 6}), 2);
    fixture.run_until_done(parent);
    ASSERT_TRUE(parent.done());
    EXPECT_EQ(parent.result(), (EnoughFixture::Results{1, 2, std::nullopt}));
    EXPECT_EQ(fixture.finished, 2);
    EXPECT_EQ(fixture.stragglers.pending(), 1U);
  }  // the parent's frame is gone; the third child runs on, owned by the keeper
  EXPECT_EQ(fixture.alive, 1);
  fixture.run_all();
  EXPECT_EQ(fixture.finished, 3);
  EXPECT_EQ(fixture.alive, 0);
  EXPECT_EQ(fixture.stragglers.pending(), 0U);
}

TEST(WhenEnough, WaitsForAllWhenThePredicateNeverHolds) {
  EnoughFixture fixture;
  Task<EnoughFixture::Results> parent = fixture.start(fixture.children({3, 0}), 5);
  fixture.run_until_done(parent);
  ASSERT_TRUE(parent.done());
  EXPECT_EQ(parent.result(), (EnoughFixture::Results{1, 2}));
  EXPECT_EQ(fixture.stragglers.pending(), 0U);
}

TEST(WhenEnough, DecidedWhileStartingDoesNotSuspend) {
  EnoughFixture fixture;
  Task<EnoughFixture::Results> parent = fixture.start(fixture.children({0, 4}), 1);
  ASSERT_TRUE(parent.done());
  EXPECT_EQ(parent.result(), (EnoughFixture::Results{1, std::nullopt}));
  fixture.run_all();
  EXPECT_EQ(fixture.finished, 2);
  EXPECT_EQ(fixture.stragglers.pending(), 0U);
}

TEST(WhenEnough, AnExceptionEndsTheWaitAndIsRethrown) {
  EnoughFixture fixture;
  {
    std::vector<Task<int>> tasks = fixture.children({5});
    tasks.push_back(fixture.delayed_failure(1));
    Task<EnoughFixture::Results> parent = fixture.start(std::move(tasks), 2);
    fixture.run_until_done(parent);
    ASSERT_TRUE(parent.done());
    EXPECT_THROW(parent.result(), std::runtime_error);
    EXPECT_EQ(fixture.finished, 0);
  }
  fixture.run_all();
  EXPECT_EQ(fixture.finished, 1);
  EXPECT_EQ(fixture.alive, 0);
}

TEST(WhenEnough, ClearingTheKeeperDestroysUnfinishedChildren) {
  EnoughFixture fixture;
  Task<EnoughFixture::Results> parent = fixture.start(fixture.children({0, 3}), 1);
  ASSERT_TRUE(parent.done());
  EXPECT_EQ(fixture.alive, 1);
  fixture.scheduler.ready.clear();  // a crashed process: the wake-ups never come...
  fixture.stragglers.clear();       // ...so the frames are destroyed
  EXPECT_EQ(fixture.alive, 0);
  EXPECT_EQ(fixture.finished, 1);
}

TEST(WhenEnough, DestroyingTheSuspendedParentDestroysItsChildren) {
  EnoughFixture fixture;
  {
    Task<EnoughFixture::Results> parent = fixture.start(fixture.children({2, 2}), 1);
    EXPECT_EQ(fixture.alive, 2);
    fixture.scheduler.ready.clear();
  }
  EXPECT_EQ(fixture.alive, 0);
  EXPECT_EQ(fixture.stragglers.pending(), 0U);
}

TEST(WhenEnough, EmptyInputGivesEmptyResult) {
  Stragglers stragglers;
  auto never = [](const std::vector<std::optional<int>>&) { return false; };
  EXPECT_TRUE(run_sync(when_enough(std::vector<Task<int>>{}, never, stragglers)).empty());
}

}  // namespace
}  // namespace lockcheck
