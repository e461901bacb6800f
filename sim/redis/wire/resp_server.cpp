#include "redis/wire/resp_server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "redis/wire/real_clock.hpp"

namespace lockcheck::mock {
namespace {

constexpr std::size_t kReadChunk = 64 * 1024;
constexpr int kPollTimeoutMs = 100;
constexpr int kEventsPerTurn = 256;

void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK); }

}  // namespace

RespServer::RespServer(Node& node, ServeOptions options) : node_(node), options_(std::move(options)) {
  listen_fd_ = socket(AF_INET, SOCK_STREAM, 0);
  if (listen_fd_ < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  int yes = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(options_.port));
  if (inet_pton(AF_INET, options_.host.c_str(), &address.sin_addr) != 1) {
    close(listen_fd_);
    throw std::runtime_error("not an IPv4 address: " + options_.host);
  }
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || listen(listen_fd_, 128) != 0) {
    std::string why = std::strerror(errno);
    close(listen_fd_);
    throw std::runtime_error("cannot listen on " + options_.host + ":" + std::to_string(options_.port) + ": " + why);
  }
  socklen_t length = sizeof address;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&address), &length);
  port_ = ntohs(address.sin_port);
  set_nonblocking(listen_fd_);
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  epoll_event listen_event{.events = EPOLLIN, .data = {.fd = listen_fd_}};
  if (epoll_fd_ < 0 || epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, listen_fd_, &listen_event) != 0) {
    std::string why = std::strerror(errno);
    if (epoll_fd_ >= 0) close(epoll_fd_);
    close(listen_fd_);
    throw std::runtime_error("epoll: " + why);
  }
  node_.set_publish_sink([this](std::int64_t client_id, const Reply& message) {
    auto it = fd_of_client_.find(client_id);
    if (it == fd_of_client_.end()) return;
    clients_.at(it->second).push(message);
  });
  // Late replies are queued, not written from inside the node: answering one runs that client's pipelined
  // commands, which must not happen while the node is still serving the command that unblocked it.
  node_.set_unblock_sink([this](std::int64_t client_id, const Reply& reply) { unblocked_.emplace_back(client_id, reply); });
  node_.set_tcp_port(port_);
  node_.set_process_id(getpid());  // INFO server: a backend tells its own server from another one on the port
  // CONFIG GET requirepass shows it, and CONFIG SET requirepass applies to connections accepted afterwards.
  node_.config().set({{"requirepass", options_.requirepass}});
  node_.set_client_directory(ClientDirectory{
      .list = [this] {
        std::vector<const Session*> sessions;
        for (const auto& [fd, client] : clients_) sessions.push_back(&client.session());
        return sessions;
      },
      .kill = [this](std::int64_t client_id) {
        auto it = fd_of_client_.find(client_id);
        if (it == fd_of_client_.end()) return false;
        clients_.at(it->second).abandon();  // closed by the loop once it sees closing()
        return true;
      },
      .shutdown = [this] {
        shutdown_requested_ = true;  // run() returns after this turn
        return true;
      },
  });
  // INFO clients and CONFIG GET maxclients show the limit this server enforces.
  node_.config().set({{"maxclients", std::to_string(options_.max_clients)}});
}

RespServer::~RespServer() {
  node_.set_publish_sink({});
  node_.set_unblock_sink({});
  node_.set_client_directory({});
  while (!clients_.empty()) close_client(clients_.begin()->first);
  if (listen_fd_ >= 0) close(listen_fd_);
  if (epoll_fd_ >= 0) close(epoll_fd_);
}

void RespServer::accept_clients() {
  // Accept what is pending now; bounded by max_clients and by the backlog.
  for (std::size_t i = 0; i < 128; ++i) {
    sockaddr_in peer{};
    socklen_t peer_length = sizeof peer;
    int fd = accept(listen_fd_, reinterpret_cast<sockaddr*>(&peer), &peer_length);
    if (fd < 0) return;
    if (clients_.size() >= options_.max_clients) {
      static constexpr std::string_view kFull = "-ERR max number of clients reached\r\n";
      (void)!send(fd, kFull.data(), kFull.size(), MSG_NOSIGNAL);
      close(fd);
      continue;
    }
    set_nonblocking(fd);
    int yes = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    std::int64_t id = next_client_id_++;
    auto [it, inserted] = clients_.try_emplace(fd, id, options_.limits, node_.config().value("requirepass"));
    char peer_host[INET_ADDRSTRLEN] = "?";
    inet_ntop(AF_INET, &peer.sin_addr, peer_host, sizeof peer_host);
    it->second.session().address = std::string(peer_host) + ":" + std::to_string(ntohs(peer.sin_port));
    it->second.session().local_address = options_.host + ":" + std::to_string(port_);
    fd_of_client_[id] = fd;
    epoll_event event{.events = EPOLLIN, .data = {.fd = fd}};
    epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &event);
  }
}

void RespServer::read_from(int fd, Client& client) {
  char chunk[kReadChunk];
  ssize_t received = recv(fd, chunk, sizeof chunk, 0);
  if (received == 0 || (received < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
    client.abandon();  // the peer is gone
    return;
  }
  if (received < 0) return;
  const int outer = std::exchange(running_fd_, fd);
  client.receive(std::string_view(chunk, static_cast<std::size_t>(received)), node_);
  running_fd_ = outer;
  if (shutdown_requested_) client.abandon();  // SHUTDOWN is not answered: redis-server exits without a reply
}

void RespServer::write_to(int fd, Client& client) {
  std::string& output = client.output();
  if (output.empty()) return;
  ssize_t sent = send(fd, output.data(), output.size(), MSG_NOSIGNAL);
  if (sent > 0) {
    output.erase(0, static_cast<std::size_t>(sent));
  } else if (sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
    client.abandon();
  }
}

void RespServer::close_client(int fd) {
  auto it = clients_.find(fd);
  if (it == clients_.end()) return;
  node_.disconnect(it->second.session());
  fd_of_client_.erase(it->second.session().client_id);
  clients_.erase(it);
  epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
  watching_output_.erase(fd);
  close(fd);
}

void RespServer::watch_output(int fd, bool pending) {
  if (pending == watching_output_.contains(fd)) return;
  epoll_event event{.events = EPOLLIN | (pending ? EPOLLOUT : 0u), .data = {.fd = fd}};
  epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, fd, &event);
  if (pending) watching_output_.insert(fd);
  else watching_output_.erase(fd);
}

void RespServer::answer_unblocked() {
  // Each answer may run commands that unblock others; every round answers what the last one queued, and a
  // client is answered once per blocking pop, so the rounds end. The bound is a guard, not a limit.
  for (int round = 0; round < 100'000 && !unblocked_.empty(); ++round) {
    auto [client_id, reply] = std::move(unblocked_.front());
    unblocked_.pop_front();
    auto it = fd_of_client_.find(client_id);
    if (it != fd_of_client_.end()) clients_.at(it->second).answer_unblocked(reply, node_);
  }
}

void RespServer::run(const std::atomic<bool>& stop) {
  stop_ = &stop;
  node_.set_busy_servicer([this] { return service_while_busy(); });
  while (!stop.load() && !shutdown_requested_) turn(kPollTimeoutMs);
  node_.set_busy_servicer({});
}

bool RespServer::service_while_busy() {
  if (shutdown_requested_ || (stop_ != nullptr && stop_->load())) return false;
  const bool outer = std::exchange(nested_, true);
  turn(0);
  nested_ = outer;
  return !(shutdown_requested_ || (stop_ != nullptr && stop_->load()));
}

void RespServer::turn(int timeout_ms) {
  const int running = running_fd_;  // protected for this whole turn
  epoll_event events[kEventsPerTurn];
  int ready = epoll_wait(epoll_fd_, events, kEventsPerTurn, timeout_ms);
  if (ready < 0 && errno != EINTR) throw std::runtime_error(std::string("epoll_wait: ") + std::strerror(errno));
  bool accepting = false;
  // In the order the connections became ready: a client served earlier sent earlier.
  for (int i = 0; i < ready; ++i) {
    const int fd = events[i].data.fd;
    if (fd == listen_fd_) {
      accepting = true;
      continue;
    }
    auto it = clients_.find(fd);
    if (fd == running || it == clients_.end()) continue;
    if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) read_from(fd, it->second);
  }
  // An unblocked client may run the commands it pipelined behind its pop: never from inside a busy script.
  if (!nested_) answer_unblocked();
  // Flush everything (replies, and pub/sub pushes to clients that sent nothing this turn).
  std::vector<int> finished;
  for (auto& [fd, client] : clients_) {
    if (fd == running) continue;
    // Pub/sub pushes bypass receive(), so a subscriber that never reads is bounded here.
    if (client.output().size() > options_.limits.max_output_bytes) client.abandon();
    write_to(fd, client);
    watch_output(fd, !client.output().empty());
    if (client.closing() && client.output().empty()) finished.push_back(fd);
  }
  for (int fd : finished) close_client(fd);
  if (accepting) accept_clients();
  // Not from inside a script: expiry would move the clock reading the script runs on.
  if (!nested_) {
    node_.expire_some(options_.active_expire_per_tick);
    node_.expire_blocked();  // timeouts on the node clock, checked every turn (at most kPollTimeoutMs apart)
    answer_unblocked();
  }
}

namespace {
std::atomic<bool> g_stop_requested{false};
void request_stop(int) { g_stop_requested.store(true); }
}  // namespace

int serve_main(const ServeOptions& options) {
  Node node(NodeOptions{.clock = real_unix_time_ms, .monitor_clock_us = real_unix_time_us});
  try {
    RespServer server(node, options);
    struct sigaction action {};
    action.sa_handler = request_stop;
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
    std::cout << "lockcheck mock Redis (7.0 semantics) serving on " << options.host << ":" << server.port()
              << (options.requirepass.empty() ? " (no password)" : " (AUTH required)") << std::endl;
    server.run(g_stop_requested);
  } catch (const std::exception& e) {
    std::cerr << "lockcheck serve: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace lockcheck::mock
