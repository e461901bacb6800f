#pragma once
// One external lock client process of `lockcheck judge` (PROTOCOL.md): started with its settings in the
// environment, spoken to in JSON lines over pipes, stopped by pid. Production seam code (fork, pipes, poll):
// the worker process that hosts it is real-time already. It stays in the worker's process group, so the
// run's pause (SIGSTOP) and crash (SIGKILL) of the worker reach the client's library too.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "running_budget.hpp"

namespace lockcheck::judge {

class ExternalProcess {
 public:
  // Starts `command` (argv[0] searched on PATH) with the worker's environment plus `extra_env`
  // ("NAME=value"); its standard error is appended to `stderr_path`. Throws std::runtime_error when it cannot.
  ExternalProcess(const std::vector<std::string>& command, const std::vector<std::string>& extra_env,
                  const std::string& stderr_path);
  ~ExternalProcess();
  ExternalProcess(const ExternalProcess&) = delete;
  ExternalProcess& operator=(const ExternalProcess&) = delete;

  // Writes one line (the object's JSON and '\n'). False when the client has gone (its stdin closed).
  bool send(const nlohmann::json& message);
  // The next JSON line within `budget` of time the client was not paused (running_budget.hpp); nothing when
  // the budget is spent or the output ended (closed() then). A line that is not a JSON object throws
  // std::runtime_error naming it (a protocol error is the adapter's bug, not a verdict).
  std::optional<nlohmann::json> receive(RunningBudget& budget);
  std::optional<nlohmann::json> receive(std::chrono::milliseconds budget);
  // Its standard output ended (it exited, or closed it).
  bool closed() const { return from_client_ < 0; }
  // Why it ended, when it has ("exited with status 127", "killed by signal 9"), or "" while it runs.
  std::string ended();
  // The last `bytes` of what it wrote to standard error: for the message when it breaks the protocol.
  std::string stderr_tail(std::size_t bytes = 600) const;
  // Closes its stdin, waits up to `grace` for it to exit, then SIGKILLs it.
  void stop(std::chrono::milliseconds grace);
  // SIGKILLs it and every process it started, at once (a client that hangs; kill_tree.hpp).
  void kill();
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  int to_client_ = -1;
  int from_client_ = -1;
  std::string buffered_;  // bytes read past the last whole line
  std::string stderr_path_;
  std::string ended_;  // set once reaped
};

}  // namespace lockcheck::judge
