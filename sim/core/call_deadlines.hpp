#pragma once
// Every call's timeout, without an event per call. A call times out `command_timeout` after it was sent unless
// a reply or a refusal settled it first, and nearly every call is settled long before: an event per call was
// a third of a run's events, each run only to find its call settled. Deadlines come in the order the calls were
// sent (now + one constant), so one queue keeps them with one event armed at the first unsettled deadline; when
// it fires, each call due then times out as its own action, in the order sent (the order the per-call events
// ran in), held while its process is paused and dropped once the incarnation that sent it crashed, as a
// per-call event was.
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>

#include "core/process.hpp"
#include "core/scheduler.hpp"

namespace lockcheck::sim {

class CallDeadlines {
 public:
  // What a call that timed out does (the world drops its connection and settles it as unknown).
  using TimedOut = std::function<void(int process, int node, PendingCall& pending)>;

  CallDeadlines(Scheduler& scheduler, TimedOut timed_out) : scheduler_(scheduler), timed_out_(std::move(timed_out)) {}

  // `pending`, just sent by `process` to `node` (-1: none), times out at `deadline_us` unless settled first.
  // Deadlines never decrease (each is the send time plus the one command timeout).
  void add(ClientProcess& process, TrueTime deadline_us, int node, std::shared_ptr<PendingCall> pending);

 private:
  struct Call {
    TrueTime deadline_us;
    ClientProcess* process;
    std::uint64_t epoch;  // the incarnation of the process that sent it
    int node;
    std::shared_ptr<PendingCall> pending;
  };
  // Arms the event at the first unsettled call's deadline, unless one is armed or none is left.
  void arm();
  void fire(TrueTime due_us);

  Scheduler& scheduler_;
  TimedOut timed_out_;
  std::deque<Call> calls_;  // in the order sent, so by deadline
  bool armed_ = false;      // an event is due at the first unsettled call's deadline (or earlier)
  bool firing_ = false;     // fire() is timing calls out: what they resume may send more
};

}  // namespace lockcheck::sim
