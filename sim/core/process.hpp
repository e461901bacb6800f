#pragma once
// A simulated client process: its clocks, its seeded entropy, its port, the lock variant it runs (the
// library's own code, unchanged) and its workload coroutine. Everything the process waits for goes
// through schedule(), which is where stop-the-world pauses and crashes take effect: a paused process's
// wake-ups are held until it resumes; a crashed process's are dropped and its coroutine frames destroyed.
#include <coroutine>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <memory>
#include <vector>

#include "core/clock_model.hpp"
#include "model/prng.hpp"
#include "core/scheduler.hpp"
#include "lockcheck/clock.hpp"
#include "lockcheck/lock_algorithm.hpp"
#include "lockcheck/port.hpp"
#include "lockcheck/spawner.hpp"

namespace lockcheck::sim {

class ClientProcess;
struct PendingCall;

// What a process sees of the world it lives in: the one clock of the run and the network to the nodes.
// World implements it; a process knows nothing else of the world (process.cpp does not include world.hpp).
class ProcessHost {
 public:
  virtual ~ProcessHost() = default;
  virtual Scheduler& scheduler() = 0;
  virtual std::size_t service_count() const = 0;
  // The node `service` now reaches and the process's session count there (Port::connection_epoch).
  virtual std::uint64_t connection_epoch(int process, std::size_t service) const = 0;
  // Sends `command` from `process` to the node now serving `service`; settles `pending` with the reply,
  // a refusal (node down) or, after the command timeout, an unknown outcome.
  virtual void send(ClientProcess& process, std::size_t service, Command command, std::shared_ptr<PendingCall> pending) = 0;
};

// The Clock seam of one process: its monotonic and wall clocks, and sleeps in virtual time.
class SimClock final : public Clock {
 public:
  explicit SimClock(ClientProcess& process) : process_(process) {}
  MonoTime monotonic_now() override;
  Millis wall_now() override;
  Task<void> sleep(Micros duration) override;
  // Wakes at the deadline or as soon as `stop` is requested, whichever comes first (once).
  Task<void> sleep_unless_stopped(Micros duration, StopSignal& stop) override;

 private:
  ClientProcess& process_;
};

// The Port seam of one process: each command travels the simulated network to the node serving it.
class SimPort final : public Port {
 public:
  SimPort(ProcessHost& world, ClientProcess& process) : world_(world), process_(process) {}
  std::size_t node_count() const override;
  Task<CallResult> call(std::size_t service, Command command) override;
  std::uint64_t connection_epoch(std::size_t service) const override;
  // SUBSCRIBE travels like any command (to the process's subscriber session on the node); messages come
  // back over the network into the process's inbox (ClientProcess::receive_message).
  Task<CallResult> subscribe(std::size_t service, std::string channel) override;
  Task<CallResult> subscribe_shard(std::size_t service, std::string channel) override;
  Task<CallResult> await_message(std::size_t service, std::string channel, Micros timeout) override;
  // A crash drops every reply still due to the process, so the calls fan_out_until stopped awaiting would
  // wait forever: their frames are destroyed here instead.
  void abandon_unawaited_calls() { stragglers().clear(); }

 private:
  Task<CallResult> subscribe_with(std::size_t service, Command command);  // SUBSCRIBE or SSUBSCRIBE

  ProcessHost& world_;
  ClientProcess& process_;
};

// Shared between a waiting call and the events that may settle it (reply, refusal or timeout): first wins.
struct PendingCall {
  bool settled = false;
  CallResult result;
  std::coroutine_handle<> waiter;
  void settle(CallResult outcome) {
    if (settled) return;
    settled = true;
    result = std::move(outcome);
    if (waiter) waiter.resume();
  }
  // settle(CallResult::of(reply)) with the reply moved once, straight into `result` (what every reply does).
  void settle_reply(Reply& reply) {
    if (settled) return;
    settled = true;
    result.status = CallStatus::replied;
    result.reply = std::move(reply);
    if (waiter) waiter.resume();
  }
};

// The Spawner seam of one process: spawned tasks (a watchdog's renewal loop) are further coroutines of the
// process, so they pause with it and die with it, as threads of a real process do.
class ClientProcess final : public Spawner {
 public:
  ClientProcess(ProcessHost& world, int id, ClockModel clock, std::uint64_t seed);

  int id() const { return id_; }
  ClockModel& clock_model() { return clock_model_; }
  SimClock& clock() { return clock_; }
  SimPort& port() { return port_; }
  Entropy& entropy() { return entropy_; }
  Prng& workload_prng() { return workload_prng_; }
  LockAlgorithm& lock() { return *lock_; }
  ProcessHost& world() { return world_; }
  bool alive() const { return !crashed_; }
  // Started at least once (a crash before its first start counts: the process then waits for a restart).
  bool started() const { return epoch_ > 0; }
  // Changes at every start and crash: which incarnation of the process sent a command.
  std::uint64_t epoch() const { return epoch_; }
  bool paused() const { return paused_; }
  std::int64_t local_now();

  // Runs `action` at true time `when` on this process's behalf (held while paused, dropped after a crash).
  // A template so that the action and this wrapper make one inline Action (no allocation per wake-up).
  template <typename F>
  void schedule(std::int64_t when, F&& action) {
    scheduler_.at(when, [this, epoch = epoch_, action = std::forward<F>(action)]() mutable {
      if (epoch != epoch_ || crashed_) return;
      run_or_hold(std::move(action));
    });
  }

  // Runs `action` now on this process's behalf, or holds it while the process is paused (as schedule() does
  // when its time comes). The caller knows the process alive.
  template <typename F>
  void run_or_hold(F&& action) {
    if (paused_) held_.emplace_back(std::forward<F>(action));
    else action();
  }

  void start(std::unique_ptr<LockAlgorithm> lock, Task<void> workload);
  std::shared_ptr<Spawned> spawn(Task<void> task) override;

  // Pub/sub messages delivered to this process, per (service, channel): queued (the newest few) until a
  // waiter takes one; each message wakes one waiter, the longest waiting first (as the threads of a real
  // client take turns on one subscribed connection). Cleared by a crash, like a closed connection.
  struct Inbox {
    std::deque<std::string> queued;
    std::deque<std::shared_ptr<PendingCall>> waiters;  // a timed-out one stays until the next wait or message
  };
  Inbox& inbox(std::size_t service, const std::string& channel) { return inboxes_[{service, channel}]; }
  void receive_message(std::size_t service, const std::string& channel, std::string payload);
  void pause();
  void resume();
  void crash();

 private:
  ProcessHost& world_;
  Scheduler& scheduler_;
  int id_;
  ClockModel clock_model_;
  SimClock clock_{*this};
  SimPort port_;
  SeededEntropy entropy_;
  Prng workload_prng_;
  std::unique_ptr<LockAlgorithm> lock_;
  Task<void> workload_;
  // Declared after lock_: spawned loops point into it, so they are destroyed first.
  std::vector<Task<void>> spawned_;
  std::map<std::pair<std::size_t, std::string>, Inbox> inboxes_;
  std::uint64_t epoch_ = 0;
  bool paused_ = false;
  bool crashed_ = false;
  std::vector<Action> held_;
};

}  // namespace lockcheck::sim
