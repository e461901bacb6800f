#include "core/process.hpp"

#include "lockcheck/assert.hpp"

namespace lockcheck::sim {
namespace {

// Awaits a PendingCall. Used as a named local (g++ 12 mishandles temporaries with destructors in co_await):
// when a crash destroys the suspended frame, the destructor unhooks it, so that a reply to a request sent
// before the crash, which the node answers after a restart (under the new incarnation), resumes nothing.
struct Suspend {
  PendingCall& pending;
  ~Suspend() { pending.waiter = {}; }
  bool await_ready() const noexcept { return pending.settled; }
  void await_suspend(std::coroutine_handle<> handle) noexcept { pending.waiter = handle; }
  void await_resume() const noexcept {}
};

struct SleepUntil {
  ClientProcess& process;
  std::int64_t wake_at;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> handle) {
    process.schedule(wake_at, [handle] { handle.resume(); });
  }
  void await_resume() const noexcept {}
};

// A spawned task's handle: finished once the task returned (or the process crashed, destroying it).
class SimSpawned final : public Spawned {
 public:
  explicit SimSpawned(ClientProcess& process) : process_(process) {}
  Task<void> join() override {
    Joiner joiner{*this};  // named, not a temporary in the co_await (g++ 12)
    if (!finished_) co_await joiner;
  }
  bool finished() const override { return finished_; }
  void finish() {
    finished_ = true;
    if (joiner_) process_.schedule(process_.world().scheduler().now(), [joiner = std::exchange(joiner_, {})] { joiner.resume(); });
  }

 private:
  struct Joiner {
    SimSpawned& spawned;
    bool await_ready() const noexcept { return spawned.finished_; }
    void await_suspend(std::coroutine_handle<> handle) noexcept { spawned.joiner_ = handle; }
    void await_resume() const noexcept {}
  };
  ClientProcess& process_;
  bool finished_ = false;
  std::coroutine_handle<> joiner_;
};

Task<void> run_spawned(Task<void> task, std::shared_ptr<SimSpawned> handle) {
  try {
    co_await std::move(task);
  } catch (...) {
    // Spawned work reports through its own state (the production spawner swallows the same way).
  }
  handle->finish();
}

}  // namespace

MonoTime SimClock::monotonic_now() { return MonoTime(process_.local_now()); }

Millis SimClock::wall_now() {
  return Millis(process_.clock_model().wall_at(process_.world().scheduler().now()) / 1000);
}

Task<void> SimClock::sleep(Micros duration) {
  const std::int64_t target = process_.local_now() + std::max<std::int64_t>(duration.count(), 0);
  co_await SleepUntil{process_, process_.clock_model().true_time_of(target)};
}

Task<void> SimClock::sleep_unless_stopped(Micros duration, StopSignal& stop) {
  // A process's code runs only in its own wake-ups, which a pause holds and a crash drops: only a running
  // process sleeps.
  LOCKCHECK_ASSERT(process_.alive() && !process_.paused());
  if (stop.requested()) co_return;
  const std::int64_t target = process_.local_now() + std::max<std::int64_t>(duration.count(), 0);
  struct EarlyOrLate {
    ClientProcess& process;
    StopSignal& stop;
    std::int64_t wake_at;
    std::uint64_t stop_wake = 0;
    std::shared_ptr<bool> woken = std::make_shared<bool>(false);
    // Also runs when a crash destroys the suspended frame: neither wake-up may resume it afterwards.
    ~EarlyOrLate() {
      *woken = true;
      if (stop_wake != 0) stop.cancel(stop_wake);
    }
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> handle) {
      // Whichever of the deadline and the stop comes first resumes; the other finds `woken` set.
      auto wake = [handle, woken = woken] {
        if (std::exchange(*woken, true)) return;
        handle.resume();
      };
      process.schedule(wake_at, wake);
      stop_wake = stop.on_request([&owner = process, wake] { owner.schedule(owner.world().scheduler().now(), wake); });
    }
    void await_resume() const noexcept {}
  };
  // A named awaiter, not a temporary: g++ 12 mishandles the lifetime of temporaries with destructors in
  // co_await expressions.
  EarlyOrLate awaiter{process_, stop, process_.clock_model().true_time_of(target)};
  co_await awaiter;
}

std::size_t SimPort::node_count() const { return world_.service_count(); }

std::uint64_t SimPort::connection_epoch(std::size_t service) const { return world_.connection_epoch(process_.id(), service); }

Task<CallResult> SimPort::call(std::size_t service, Command command) {
  auto pending = std::make_shared<PendingCall>();
  world_.send(process_, service, std::move(command), pending);
  Suspend suspend{*pending};
  co_await suspend;
  co_return std::move(pending->result);
}

// Named commands, not temporaries in the co_await: g++ 12 mishandles those (see above).
Task<CallResult> SimPort::subscribe(std::size_t service, std::string channel) {
  Command command{std::string("SUBSCRIBE"), std::move(channel)};
  co_return co_await subscribe_with(service, std::move(command));
}

Task<CallResult> SimPort::subscribe_shard(std::size_t service, std::string channel) {
  Command command{std::string("SSUBSCRIBE"), std::move(channel)};
  co_return co_await subscribe_with(service, std::move(command));
}

Task<CallResult> SimPort::subscribe_with(std::size_t service, Command command) {
  CallResult result = co_await call(service, std::move(command));
  if (result.replied() && !result.reply.is_error()) co_return CallResult::of(Reply::integer_reply(1));
  co_return result;
}

Task<CallResult> SimPort::await_message(std::size_t service, std::string channel, Micros timeout) {
  LOCKCHECK_ASSERT(process_.alive() && !process_.paused());  // only a running process awaits (as for a sleep)
  ClientProcess::Inbox& inbox = process_.inbox(service, channel);
  if (!inbox.queued.empty()) {
    std::string payload = std::move(inbox.queued.front());
    inbox.queued.pop_front();
    co_return CallResult::of(Reply::bulk(std::move(payload)));
  }
  auto pending = std::make_shared<PendingCall>();
  // Waiters that timed out leave here (a channel no message ever reaches would keep them all).
  std::erase_if(inbox.waiters, [](const std::shared_ptr<PendingCall>& waiter) { return waiter->settled; });
  inbox.waiters.push_back(pending);
  const std::int64_t deadline_local = process_.local_now() + std::max<std::int64_t>(timeout.count(), 0);
  process_.schedule(process_.clock_model().true_time_of(deadline_local), [pending] {
    pending->settle(CallResult::failed(CallStatus::unknown, "no message before the timeout"));
  });
  Suspend suspend{*pending};
  co_await suspend;
  co_return std::move(pending->result);
}

void ClientProcess::receive_message(std::size_t service, const std::string& channel, std::string payload) {
  Inbox& box = inbox(service, channel);
  // Bounded by the waiters: each round removes one.
  while (!box.waiters.empty()) {
    const std::shared_ptr<PendingCall> waiter = std::move(box.waiters.front());
    box.waiters.pop_front();
    if (waiter->settled) continue;  // timed out already
    waiter->settle(CallResult::of(Reply::bulk(std::move(payload))));
    return;
  }
  box.queued.push_back(std::move(payload));
  while (box.queued.size() > kMaxQueuedMessages) box.queued.pop_front();
  LOCKCHECK_ASSERT(!box.queued.empty() && box.queued.size() <= kMaxQueuedMessages);
}

ClientProcess::ClientProcess(ProcessHost& world, int id, ClockModel clock, std::uint64_t seed)
    : world_(world),
      scheduler_(world.scheduler()),
      id_(id),
      clock_model_(clock),
      port_(world, *this),
      entropy_(derive_seed(seed, "entropy")),
      workload_prng_(derive_seed(seed, "workload")) {}

std::int64_t ClientProcess::local_now() { return clock_model_.monotonic_at(world_.scheduler().now()); }

void ClientProcess::start(std::unique_ptr<LockAlgorithm> lock, Task<void> workload) {
  LOCKCHECK_ASSERT(epoch_ == 0 || crashed_);  // a process starts once, then only after a crash
  ++epoch_;
  crashed_ = false;
  paused_ = false;
  held_.clear();
  lock_ = std::move(lock);
  workload_ = std::move(workload);
  workload_.start();
}

std::shared_ptr<Spawned> ClientProcess::spawn(Task<void> task) {
  std::erase_if(spawned_, [](const Task<void>& done) { return done.done(); });
  auto handle = std::make_shared<SimSpawned>(*this);
  spawned_.push_back(run_spawned(std::move(task), handle));
  spawned_.back().start();
  return handle;
}

void ClientProcess::pause() {
  LOCKCHECK_ASSERT(!crashed_ && !paused_);  // only a running process stops the world
  paused_ = true;
}

void ClientProcess::resume() {
  if (!paused_) return;
  paused_ = false;
  std::vector<Action> held = std::move(held_);
  held_.clear();
  // Everything that came due during the pause happens now, in the order it came due.
  for (auto& action : held) schedule(world_.scheduler().now(), std::move(action));
}

void ClientProcess::crash() {
  LOCKCHECK_ASSERT(!crashed_);  // a dead process does not die again
  crashed_ = true;
  ++epoch_;
  held_.clear();
  spawned_.clear();   // a crashed process's renewal loops die with it
  inboxes_.clear();   // and its pub/sub connections
  port_.abandon_unawaited_calls();
  workload_.reset();  // destroys every frame of the workload and the lock calls inside it
}

}  // namespace lockcheck::sim
