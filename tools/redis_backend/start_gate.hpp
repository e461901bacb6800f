#pragma once
// The start of a run on the redis backend: time 0 is when every client process is ready (its lock built, an
// external client's hello read), not when the run forked it. A judged client's runtime may take a second to
// start (Node loads its modules, a version manager's python3 shim re-resolves), and a fault scheduled at
// 400 ms must not land before the client could do anything.
//
// Each first-incarnation worker gets one end of a socket pair: it writes "ready\n" once set up, then blocks
// until the run writes "go <start_ns>\n" (CLOCK_MONOTONIC, the run's time 0). A restarted worker has no gate:
// the run is already under way, and it sends no request before its own client's hello.
#include <cstdint>
#include <string>

namespace lockcheck::redis_backend {

// The worker's side. The descriptor is closed on exec (an external client must not hold it).
class WorkerGate {
 public:
  explicit WorkerGate(int fd);
  ~WorkerGate();
  WorkerGate(const WorkerGate&) = delete;
  WorkerGate& operator=(const WorkerGate&) = delete;

  // Says ready, then waits for the run's time 0 (the run bounds the wait: it kills a worker it gives up on).
  // Throws std::runtime_error if the run closed the gate without a start.
  std::int64_t ready_then_await_start_ns();

 private:
  int fd_;
};

// The run's side: one gate per worker, created before the fork.
struct GatePair {
  int run_fd = -1;
  int worker_fd = -1;
};
GatePair make_gate_pair();
// Reads "ready\n" if it is there: true once it has come; false when nothing came yet. Throws
// std::runtime_error when the worker closed its end (it exited).
bool gate_says_ready(int run_fd);
void gate_send_start(int run_fd, std::int64_t start_ns);

}  // namespace lockcheck::redis_backend
