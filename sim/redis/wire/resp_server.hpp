#pragma once
// Serves one Node over RESP2 on a TCP socket: a single-threaded epoll loop, pipelining, pub/sub pushes,
// bounded input (RespLimits) and output per client. A script running past busy-reply-threshold has the
// loop served from its Lua hook (as Redis's processEventsWhileBlocked): other clients get -BUSY, and
// SCRIPT KILL / FUNCTION KILL stop it. A production seam: real sockets live here only.
#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>

#include "redis/server/node.hpp"
#include "redis/wire/resp_connection.hpp"

namespace lockcheck::mock {

struct ServeOptions {
  std::string host = "127.0.0.1";  // loopback unless told otherwise
  int port = 6379;                 // 0 picks a free port (see RespServer::port())
  std::string requirepass{};       // non-empty: clients must AUTH first (see RespConnection)
  ConnectionLimits limits{};
  std::size_t max_clients = 1024;
  std::size_t active_expire_per_tick = 20;    // keys removed by active expiry per loop turn
};

class RespServer {
 public:
  // Binds and listens; throws std::runtime_error when it cannot.
  RespServer(Node& node, ServeOptions options);
  ~RespServer();
  RespServer(const RespServer&) = delete;
  RespServer& operator=(const RespServer&) = delete;

  int port() const { return port_; }
  // Serves until `stop` becomes true (checked at least every 100 ms) or a client sends SHUTDOWN.
  void run(const std::atomic<bool>& stop);

 private:
  using Client = RespConnection;  // closing() = close once the output is flushed
  void accept_clients();
  void read_from(int fd, Client& client);
  void write_to(int fd, Client& client);
  void close_client(int fd);
  // Asks epoll to report `fd` writable too while it has output waiting (readable always).
  void watch_output(int fd, bool pending);
  // One turn of the loop: poll (up to `timeout_ms`), read, write, close, accept; active expiry unless nested.
  void turn(int timeout_ms);
  // While a script is busy (Node::set_busy_servicer): serves the other clients once; false when stopping.
  bool service_while_busy();
  void answer_unblocked();

  Node& node_;
  ServeOptions options_;
  int listen_fd_ = -1;
  // epoll, not poll: its ready list is in arrival order, so commands sent on two connections one after the
  // other run in that order, as on redis-server (poll would serve the lower fd first).
  int epoll_fd_ = -1;
  std::set<int> watching_output_;
  int port_ = 0;
  std::int64_t next_client_id_ = 1;
  std::map<int, Client> clients_;                // by fd
  std::map<std::int64_t, int> fd_of_client_;     // client id -> fd, for pub/sub delivery
  // The client whose command is running (a busy script's caller): not read, written or closed by a turn
  // served from inside that command, as Redis protects it. -1 when none.
  int running_fd_ = -1;
  bool nested_ = false;  // a turn served from inside a busy script
  const std::atomic<bool>* stop_ = nullptr;
  bool shutdown_requested_ = false;  // a client's SHUTDOWN: stop like `stop`
  std::deque<std::pair<std::int64_t, Reply>> unblocked_;  // late replies to blocking pops, in order
};

// `lockcheck serve`: a fresh node on the real clock, served until SIGINT/SIGTERM or SHUTDOWN. Returns a process exit code.
// Binding anything but loopback, or serving without a password, exposes every key and EVAL to the network:
// README.md's threat model says what that means.
int serve_main(const ServeOptions& options);

}  // namespace lockcheck::mock
