#include "external_process.hpp"

#include "kill_tree.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <stdexcept>

extern char** environ;

namespace lockcheck::judge {
namespace {

using SteadyClock = std::chrono::steady_clock;

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

}  // namespace

ExternalProcess::ExternalProcess(const std::vector<std::string>& command, const std::vector<std::string>& extra_env,
                                 const std::string& stderr_path)
    : stderr_path_(stderr_path) {
  if (command.empty()) throw std::runtime_error("the external client's command is empty");
  int in_pipe[2], out_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    close(in_pipe[0]);
    close(in_pipe[1]);
    throw std::runtime_error("pipe failed");
  }
  // Everything the child needs is built before fork: the worker may have threads.
  std::vector<std::string> args = command, env;
  for (char** entry = environ; *entry != nullptr; ++entry) env.emplace_back(*entry);
  env.insert(env.end(), extra_env.begin(), extra_env.end());
  std::vector<char*> argv, envp;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  for (auto& entry : env) envp.push_back(entry.data());
  envp.push_back(nullptr);
  const int error_fd = open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the worker, whatever killed it
    dup2(in_pipe[0], STDIN_FILENO);
    dup2(out_pipe[1], STDOUT_FILENO);
    if (error_fd >= 0) dup2(error_fd, STDERR_FILENO);
    execvpe(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  pid_ = child;
  if (error_fd >= 0) close(error_fd);
  close(in_pipe[0]);
  close(out_pipe[1]);
  to_client_ = in_pipe[1];
  from_client_ = out_pipe[0];
  signal(SIGPIPE, SIG_IGN);  // a client that exits mid-request is a failed send, not a dead worker
}

ExternalProcess::~ExternalProcess() { stop(std::chrono::milliseconds(0)); }

bool ExternalProcess::send(const nlohmann::json& message) {
  const std::string line = message.dump() + "\n";
  std::size_t written = 0;
  // Bounded: each round writes at least one byte or gives up.
  while (written < line.size()) {
    const ssize_t n = write(to_client_, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

std::optional<nlohmann::json> ExternalProcess::receive(std::chrono::milliseconds budget) {
  RunningBudget running(budget, SteadyClock::now());
  return receive(running);
}

std::optional<nlohmann::json> ExternalProcess::receive(RunningBudget& budget) {
  // Bounded by the budget: each round waits at most a slice for bytes, and every slice counts (a stopped
  // worker's at most the slice and its allowance), or ends on a line or the end of output.
  while (true) {
    const std::size_t newline = buffered_.find('\n');
    if (newline != std::string::npos) {
      const std::string line = buffered_.substr(0, newline);
      buffered_.erase(0, newline + 1);
      if (line.empty()) continue;
      nlohmann::json message = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (!message.is_object()) throw std::runtime_error("the external client wrote a line that is not a JSON object: " + line);
      return message;
    }
    if (budget.spent() || from_client_ < 0) return std::nullopt;
    const std::chrono::milliseconds wait = budget.next_wait();
    pollfd ready{from_client_, POLLIN, 0};
    const int polled = poll(&ready, 1, static_cast<int>(wait.count()));
    budget.count(wait, SteadyClock::now());
    if (polled < 0 && errno == EINTR) continue;  // a SIGSTOP/SIGCONT of the worker interrupts poll
    if (polled <= 0) continue;
    char chunk[4096];
    const ssize_t n = read(from_client_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close_fd(from_client_);
      return std::nullopt;
    }
    buffered_.append(chunk, static_cast<std::size_t>(n));
  }
}

std::string ExternalProcess::ended() {
  if (ended_.empty() && pid_ > 0) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      ended_ = WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status)) +
                                       (WEXITSTATUS(status) == 127 ? " (command not found?)" : "")
                                 : "killed by signal " + std::to_string(WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    }
  }
  return ended_;
}

std::string ExternalProcess::stderr_tail(std::size_t bytes) const {
  std::ifstream in(stderr_path_, std::ios::binary | std::ios::ate);
  if (!in) return {};
  const std::streamoff size = in.tellg();
  const std::streamoff from = size > static_cast<std::streamoff>(bytes) ? size - static_cast<std::streamoff>(bytes) : 0;
  in.seekg(from);
  std::string tail(static_cast<std::size_t>(size - from), '\0');
  in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
  return tail;
}

void ExternalProcess::kill() {
  if (pid_ > 0) {
    kill_tree(pid_);
    int status = 0;
    waitpid(pid_, &status, 0);  // bounded: SIGKILL cannot be caught, and the child is not stopped (kill_tree)
    pid_ = -1;
    ended_ = "killed by signal 9";
  }
  close_fd(to_client_);
  close_fd(from_client_);
}

void ExternalProcess::stop(std::chrono::milliseconds grace) {
  close_fd(to_client_);
  if (pid_ > 0) {
    const auto deadline = SteadyClock::now() + grace;
    int status = 0;
    // Bounded by `grace`, in 10 ms steps.
    while (waitpid(pid_, &status, WNOHANG) == 0) {
      if (SteadyClock::now() >= deadline) {
        ::kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        break;
      }
      usleep(10000);
    }
    pid_ = -1;
  }
  close_fd(from_client_);
}

}  // namespace lockcheck::judge
