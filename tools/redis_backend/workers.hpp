#pragma once
// The client processes of a run: lockcheck_redis_worker children, one per scenario client, that the run
// pauses (SIGSTOP / SIGCONT), crashes (SIGKILL) and restarts. Each appends its records to its own file.
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace lockcheck::redis_backend {

struct WorkerLaunch {
  std::string executable;    // lockcheck_redis_worker
  std::string config_path;   // worker_config.hpp
  std::string routing_path;
  std::string clock_directory;  // client-<i>.clock files (ClientClockState) are here
  std::string directory;     // worker-<i>.jsonl files go here
  int services = 1;
  int resource_port = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_us = 0;
  std::uint64_t seed = 1;
};

class Workers {
 public:
  Workers(WorkerLaunch launch, int count);
  ~Workers();  // kills every worker still running
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  // `gated`: the worker says when it is ready and waits for go() (start_gate.hpp); a restart is not gated.
  void start(int process, bool gated = false);
  // The gated workers that have not said ready yet. Throws std::runtime_error naming one that exited first.
  std::vector<int> not_ready();
  // Time 0: every gated worker starts its workload from `start_ns` (CLOCK_MONOTONIC).
  void go(std::int64_t start_ns);
  bool alive(int process) const { return pids_.at(static_cast<std::size_t>(process)) > 0; }
  void pause(int process);
  void resume(int process);
  void crash(int process);
  void kill_all();
  // Reaps workers that exited on their own; returns a message when one failed (exit code other than 0).
  std::string reap();
  std::string output_path(int process) const;
  int count() const { return static_cast<int>(pids_.size()); }

 private:
  WorkerLaunch launch_;
  std::vector<pid_t> pids_;
  std::vector<std::uint64_t> incarnations_;
  std::vector<int> gates_;  // the run's end of each gated worker's start gate; -1 once ready or never gated
  std::vector<bool> ready_;
};

}  // namespace lockcheck::redis_backend
