// A lock call on a connection the server has reset must fail, not kill the program: hiredis writes with
// write(2), which raises SIGPIPE there, and SIGPIPE's default action ends the process. Seen on the redis
// backend: a worker running redlock was killed by signal 13 when its EVAL went to a redis-server the fault had
// just killed (scenarios/redis/redlock-master-down-holds.toml, about one run in ten).
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <pthread.h>
#include <signal.h>

#include <cstdlib>
#include <thread>

#include "lockcheck/hiredis_port.hpp"
#include "lockcheck/no_sigpipe.hpp"
#include "lockcheck/task.hpp"

namespace lockcheck {
namespace {

// A loopback listener on a free port, closed at the end.
struct Listener {
  int fd = -1;
  int port = 0;
  Listener() {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), size) != 0 || ::listen(fd, 4) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
      std::abort();  // no loopback: nothing this test could say
    }
    port = ntohs(address.sin_port);
  }
  ~Listener() { ::close(fd); }
  // Takes the connection the port made, answers its readiness PING, then ends it as a killed server's kernel
  // does: a FIN (the client's side is then in CLOSE_WAIT), and a reset (RST), which the kernel sends in
  // answer to the client's next segment. A write after both fails with EPIPE and raises SIGPIPE.
  void answer_then_reset_next_connection() const {
    const int accepted = ::accept(fd, nullptr, nullptr);
    char request[64];
    if (::read(accepted, request, sizeof request) <= 0) std::abort();  // the port's PING
    constexpr char kPong[] = "+PONG\r\n";
    if (::write(accepted, kPong, sizeof kPong - 1) != static_cast<ssize_t>(sizeof kPong - 1)) std::abort();
    ::shutdown(accepted, SHUT_WR);
    const linger reset_on_close{1, 0};
    ::setsockopt(accepted, SOL_SOCKET, SO_LINGER, &reset_on_close, sizeof reset_on_close);
    ::close(accepted);
  }
};

// Connects a port, has the server reset the connection, then calls: exits 0 when the call returned.
[[noreturn]] void call_on_a_reset_connection() {
  const Listener listener;
  ConnectionOptions options;
  options.port = listener.port;
  options.connect_timeout = Millis(1000);
  options.command_timeout = Millis(1000);
  HiredisPort port({options});
  std::thread server([&listener] { listener.answer_then_reset_next_connection(); });
  port.connect(0);
  server.join();
  const CallResult result = run_sync(port.call(0, {"PING"}));
  std::_Exit(result.replied() ? 3 : 0);  // a reply from a reset connection would be a lie
}

TEST(Sigpipe, ACallOnAConnectionTheServerResetFailsInsteadOfKillingTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(call_on_a_reset_connection(), ::testing::ExitedWithCode(0), "");
}

// The guard leaves the thread as it found it: SIGPIPE unblocked again and none left pending.
TEST(Sigpipe, TheGuardRestoresTheMaskAndLeavesNoSignalPending) {
  int ends[2] = {-1, -1};
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, ends), 0);
  ::close(ends[1]);
  {
    const detail::NoSigpipe no_sigpipe;
    EXPECT_EQ(::write(ends[0], "x", 1), -1);  // EPIPE, and a SIGPIPE the guard takes
  }
  ::close(ends[0]);
  sigset_t mask;
  ASSERT_EQ(pthread_sigmask(SIG_SETMASK, nullptr, &mask), 0);
  EXPECT_EQ(sigismember(&mask, SIGPIPE), 0);
  sigset_t pending;
  ASSERT_EQ(sigpending(&pending), 0);
  EXPECT_EQ(sigismember(&pending, SIGPIPE), 0);
}

}  // namespace
}  // namespace lockcheck
