#pragma once
// Every call's timeout, without an event per call. A call times out `command_timeout` after it was sent unless
// a reply or a refusal settled it first, and nearly every call is settled long before: an event per call was
// a third of a run's events, each run only to find its call settled. The deadlines of one process come in the
// order its calls were sent (now + one constant), so each process keeps them in a queue with one event armed,
// at its first unsettled deadline; when it fires, each call due then times out as its own action, in the
// order sent, held while the process is paused and dropped once it crashed, as a per-call event was.
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "core/process.hpp"
#include "core/scheduler.hpp"

namespace lockcheck::sim {

class CallDeadlines {
 public:
  // What a call that timed out does (the world drops its connection and settles it as unknown).
  using TimedOut = std::function<void(int process, int node, PendingCall& pending)>;

  CallDeadlines(Scheduler& scheduler, TimedOut timed_out) : scheduler_(scheduler), timed_out_(std::move(timed_out)) {}

  // `pending`, just sent by `process` to `node` (-1: none), times out at `deadline_us` unless settled first.
  // A process's deadlines never decrease (each is the send time plus the one command timeout).
  void add(ClientProcess& process, TrueTime deadline_us, int node, std::shared_ptr<PendingCall> pending);

 private:
  struct Call {
    TrueTime deadline_us;
    int node;
    std::shared_ptr<PendingCall> pending;
  };
  struct Queue {
    std::deque<Call> calls;   // in the order sent, so by deadline
    std::uint64_t epoch = 0;  // the process incarnation that sent them
    bool armed = false;       // an event is due at the first unsettled call's deadline (or earlier)
    bool firing = false;      // fire() is timing calls out: what they resume may send more
  };
  Queue& queue_of(const ClientProcess& process);
  // Arms the queue's event at its first unsettled call's deadline, unless one is armed or none is left.
  void arm(ClientProcess& process);
  void fire(ClientProcess& process, std::uint64_t epoch, TrueTime due_us);

  Scheduler& scheduler_;
  TimedOut timed_out_;
  std::vector<Queue> queues_;  // by process id, grown on first use
};

}  // namespace lockcheck::sim
