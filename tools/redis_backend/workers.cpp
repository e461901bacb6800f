#include "workers.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "start_gate.hpp"

namespace lockcheck::redis_backend {
namespace {

// The worker's group, or the worker alone if its group is not there (setpgid failed: it has exec'd already).
void signal_group(pid_t pid, int signal) {
  if (::kill(-pid, signal) != 0) ::kill(pid, signal);
}

}  // namespace

Workers::Workers(WorkerLaunch launch, int count)
    : launch_(std::move(launch)),
      pids_(static_cast<std::size_t>(count), -1),
      incarnations_(static_cast<std::size_t>(count), 0),
      gates_(static_cast<std::size_t>(count), -1),
      ready_(static_cast<std::size_t>(count), false) {}

Workers::~Workers() {
  kill_all();
  for (int& gate : gates_) {
    if (gate >= 0) ::close(gate);
    gate = -1;
  }
}

std::string Workers::output_path(int process) const {
  return launch_.directory + "/worker-" + std::to_string(process) + ".jsonl";
}

void Workers::start(int process, bool gated) {
  const auto index = static_cast<std::size_t>(process);
  const GatePair gate = gated ? make_gate_pair() : GatePair{};
  std::vector<std::string> args = {launch_.executable,
                                   "--config", launch_.config_path,
                                   "--process", std::to_string(process),
                                   "--services", std::to_string(launch_.services),
                                   "--routing", launch_.routing_path,
                                   "--clock", launch_.clock_directory + "/client-" + std::to_string(process) + ".clock",
                                   "--resource-port", std::to_string(launch_.resource_port),
                                   "--start-ns", std::to_string(launch_.start_ns),
                                   "--end-us", std::to_string(launch_.end_us),
                                   "--seed", std::to_string(launch_.seed),
                                   "--incarnation", std::to_string(incarnations_[index]++),
                                   "--out", output_path(process)};
  if (gated) {
    args.push_back("--gate-fd");
    args.push_back(std::to_string(gate.worker_fd));
  }
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    // Its own process group: a Ctrl-C reaches only the run, which then stops everything in order.
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (gated) ::fcntl(gate.worker_fd, F_SETFD, 0);  // the worker's end survives the exec; the run's does not
    execv(argv[0], argv.data());
    _exit(127);
  }
  // The parent too: a signal to the group right after the fork (a pause at 1 ms) must not find it missing.
  setpgid(child, child);
  pids_[index] = child;
  if (gated) {
    ::close(gate.worker_fd);
    gates_[index] = gate.run_fd;
  }
}

std::vector<int> Workers::not_ready() {
  std::vector<int> waiting;
  for (std::size_t i = 0; i < gates_.size(); ++i) {
    if (gates_[i] < 0 || ready_[i]) continue;
    try {
      ready_[i] = gate_says_ready(gates_[i]);
    } catch (const std::runtime_error& error) {
      throw std::runtime_error(fmt::format("client {} did not get ready: {} (its message is on standard error)", i, error.what()));
    }
    if (!ready_[i]) waiting.push_back(static_cast<int>(i));
  }
  return waiting;
}

void Workers::go(std::int64_t start_ns) {
  launch_.start_ns = start_ns;  // a restart starts on the same time 0
  for (int& gate : gates_) {
    if (gate < 0) continue;
    gate_send_start(gate, start_ns);
    ::close(gate);
    gate = -1;
  }
}

// Signals go to the worker's process group (a worker leads its own): an external lock client the worker runs
// (lockcheck judge) stops, resumes and dies with it, as one process would.
void Workers::pause(int process) {
  if (alive(process)) signal_group(pids_.at(static_cast<std::size_t>(process)), SIGSTOP);
}

void Workers::resume(int process) {
  if (alive(process)) signal_group(pids_.at(static_cast<std::size_t>(process)), SIGCONT);
}

void Workers::crash(int process) {
  pid_t& pid = pids_.at(static_cast<std::size_t>(process));
  if (pid <= 0) return;
  signal_group(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  pid = -1;
}

void Workers::kill_all() {
  for (int process = 0; process < count(); ++process) crash(process);
}

std::string Workers::reap() {
  for (std::size_t i = 0; i < pids_.size(); ++i) {
    if (pids_[i] <= 0) continue;
    int status = 0;
    if (waitpid(pids_[i], &status, WNOHANG) != pids_[i]) continue;
    pids_[i] = -1;
    if (WIFSIGNALED(status)) {
      return fmt::format("worker {} was killed by signal {} ({})", i, WTERMSIG(status), strsignal(WTERMSIG(status)));
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      return fmt::format("worker {} failed (exit status {}, its message is on standard error)", i,
                         WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
  }
  return {};
}

}  // namespace lockcheck::redis_backend
