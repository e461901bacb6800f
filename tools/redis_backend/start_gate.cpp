#include "start_gate.hpp"

#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

#include <fmt/format.h>

namespace lockcheck::redis_backend {
namespace {

void write_line(int fd, const std::string& text) {
  std::size_t written = 0;
  // Bounded: each round writes at least one byte or throws.
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("the run's start gate is closed");
    written += static_cast<std::size_t>(n);
  }
}

}  // namespace

WorkerGate::WorkerGate(int fd) : fd_(fd) { ::fcntl(fd_, F_SETFD, FD_CLOEXEC); }

WorkerGate::~WorkerGate() { ::close(fd_); }

std::int64_t WorkerGate::ready_then_await_start_ns() {
  write_line(fd_, "ready\n");
  std::string line;
  char c = 0;
  // One short line; the run bounds how long it waits for every worker, then writes it or kills us.
  constexpr std::size_t kMaxLine = 64;
  while (line.size() < kMaxLine) {
    const ssize_t n = ::read(fd_, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("the run closed its start gate before time 0");
    if (c == '\n') break;
    line += c;
  }
  std::int64_t start_ns = 0;
  if (std::sscanf(line.c_str(), "go %lld", reinterpret_cast<long long*>(&start_ns)) != 1) {
    throw std::runtime_error("the run's start gate said '" + line + "', not 'go <ns>'");
  }
  return start_ns;
}

GatePair make_gate_pair() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) throw std::runtime_error("socketpair failed");
  // The run's end never blocks: it polls every worker's gate in turn.
  ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  return GatePair{fds[0], fds[1]};
}

bool gate_says_ready(int run_fd) {
  char buffer[16];
  const ssize_t n = ::read(run_fd, buffer, sizeof buffer);
  if (n > 0) return true;  // "ready\n" is the only thing a worker writes
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return false;
  throw std::runtime_error("it exited before it was ready");
}

void gate_send_start(int run_fd, std::int64_t start_ns) { write_line(run_fd, fmt::format("go {}\n", start_ns)); }

}  // namespace lockcheck::redis_backend
