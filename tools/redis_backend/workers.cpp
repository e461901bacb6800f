#include "workers.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>

namespace lockcheck::redis_backend {
namespace {

// The worker's group, or the worker alone if its group is not there (setpgid failed: it has exec'd already).
void signal_group(pid_t pid, int signal) {
  if (::kill(-pid, signal) != 0) ::kill(pid, signal);
}

}  // namespace

Workers::Workers(WorkerLaunch launch, int count)
    : launch_(std::move(launch)), pids_(static_cast<std::size_t>(count), -1), incarnations_(static_cast<std::size_t>(count), 0) {}

Workers::~Workers() { kill_all(); }

std::string Workers::output_path(int process) const {
  return launch_.directory + "/worker-" + std::to_string(process) + ".jsonl";
}

void Workers::start(int process) {
  const auto index = static_cast<std::size_t>(process);
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
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    // Its own process group: a Ctrl-C reaches only the run, which then stops everything in order.
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    execv(argv[0], argv.data());
    _exit(127);
  }
  // The parent too: a signal to the group right after the fork (a pause at 1 ms) must not find it missing.
  setpgid(child, child);
  pids_[index] = child;
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
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      return "worker " + std::to_string(i) + " failed (exit status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
             ", its message is on standard error)";
    }
  }
  return {};
}

}  // namespace lockcheck::redis_backend
