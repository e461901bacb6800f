#include "link_proxy.hpp"

#include "resp_frames.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

namespace lockcheck::redis_backend {
namespace {

std::int64_t now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

sockaddr_in loopback(int port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  return address;
}

struct Chunk {
  std::int64_t due_us;
  std::string bytes;
};

// One proxied connection: side[0] the accepted client, side[1] the target; queue[d] carries bytes read
// from side[d] to side[1 - d].
struct Pair {
  int side[2] = {-1, -1};
  std::uint32_t source = 0;  // the accepted side's address, network byte order
  std::deque<Chunk> queue[2];
  std::string partial[2];  // resp links: bytes of a message not yet complete
  std::unique_ptr<StreamFilter> filter;  // null: bytes pass unchanged
  bool open = true;
  void close_both() {
    for (int& fd : side) {
      if (fd >= 0) ::close(fd);
      fd = -1;
    }
    for (int d = 0; d < 2; ++d) {
      queue[d].clear();
      partial[d].clear();
    }
    open = false;
  }
};

bool write_all(int fd, const std::string& bytes) {
  std::size_t sent = 0;
  for (int attempt = 0; attempt < 10000 && sent < bytes.size(); ++attempt) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return sent == bytes.size();
}

}  // namespace

LinkProxy::LinkProxy(int target_port, std::int64_t delay_us, bool resp, std::uint64_t seed)
    : target_ports_{target_port}, delay_us_(delay_us), resp_(resp), prng_(seed) {
  start();
}

void LinkProxy::set_target_port(int port) {
  std::lock_guard<std::mutex> lock(targets_mutex_);
  target_ports_.at(0) = port;
}

void LinkProxy::set_stream_filter(std::function<std::unique_ptr<StreamFilter>()> make) {
  std::lock_guard<std::mutex> lock(targets_mutex_);
  make_filter_ = std::move(make);
}

void LinkProxy::set_target_ports(const std::vector<int>& ports) {
  std::lock_guard<std::mutex> lock(targets_mutex_);
  if (ports.size() != target_ports_.size()) throw std::invalid_argument("set_target_ports: one port per link");
  target_ports_ = ports;
}

LinkProxy::LinkProxy(const std::vector<int>& target_ports, std::int64_t delay_us)
    : target_ports_(target_ports), delay_us_(delay_us), resp_(false), prng_(0) {
  start();
}

void LinkProxy::start() {
  for (std::size_t link = 0; link < target_ports_.size(); ++link) {
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address = loopback(0);
    socklen_t length = sizeof address;
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || listen(fd, 16) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      if (fd >= 0) ::close(fd);
      close_listeners();
      throw std::runtime_error("link proxy: cannot listen");
    }
    listen_fds_.push_back(fd);
    ports_.push_back(ntohs(address.sin_port));
  }
  thread_ = std::thread([this] { loop(); });
}

void LinkProxy::set_partitioned_sources(std::set<std::string> addresses) {
  std::set<std::uint32_t> parsed;
  for (const std::string& address : addresses) {
    in_addr binary{};
    if (inet_pton(AF_INET, address.c_str(), &binary) != 1) throw std::invalid_argument("link proxy: not an IPv4 address: " + address);
    parsed.insert(binary.s_addr);
  }
  const std::lock_guard<std::mutex> guard(sources_mutex_);
  partitioned_sources_ = std::move(parsed);
}

void LinkProxy::close_listeners() {
  for (int fd : listen_fds_) ::close(fd);
  listen_fds_.clear();
}

LinkProxy::~LinkProxy() { stop(); }

void LinkProxy::stop() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
  close_listeners();
}

void LinkProxy::loop() {
  // The kernel may end a timed wait up to the thread's timer slack late (50 us by default): a fifth of a
  // 250 us link delay. 1 us keeps the delay what the caller set.
  prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
  std::vector<Pair> pairs;
  char buffer[65536];
  while (!stopping_) {
    std::vector<pollfd> fds;
    for (int fd : listen_fds_) fds.push_back({fd, POLLIN, 0});
    for (const Pair& pair : pairs) {
      for (int side : pair.side) fds.push_back({side, POLLIN, 0});
    }
    std::int64_t wait_us = 10'000;
    const std::int64_t now = now_us();
    for (const Pair& pair : pairs) {
      for (const auto& queue : pair.queue) {
        if (!queue.empty()) wait_us = std::min(wait_us, std::max<std::int64_t>(0, queue.front().due_us - now));
      }
    }
    // ppoll, not poll: a millisecond timeout would round every 250 us delay up to a millisecond or more.
    const timespec wait{static_cast<time_t>(wait_us / 1'000'000), static_cast<long>(wait_us % 1'000'000 * 1000)};
    ppoll(fds.data(), fds.size(), &wait, nullptr);
    // After the wait, not before: bytes read now are judged by the partition as it is now.
    std::set<std::uint32_t> cut_sources;
    {
      const std::lock_guard<std::mutex> guard(sources_mutex_);
      cut_sources = partitioned_sources_;
    }
    auto cut = [&](const Pair& pair) { return partitioned_ || cut_sources.count(pair.source) > 0; };
    const std::size_t listeners = listen_fds_.size();
    for (std::size_t link = 0; link < listeners; ++link) {
      if ((fds[link].revents & POLLIN) == 0) continue;
      Pair pair;
      sockaddr_in source{};
      socklen_t source_length = sizeof source;
      pair.side[0] = accept4(listen_fds_[link], reinterpret_cast<sockaddr*>(&source), &source_length, SOCK_CLOEXEC);
      pair.source = source.sin_addr.s_addr;
      pair.side[1] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      sockaddr_in target{};
      {
        std::lock_guard<std::mutex> lock(targets_mutex_);
        target = loopback(target_ports_[link]);
        if (make_filter_) pair.filter = make_filter_();
      }
      if (pair.side[0] < 0 || pair.side[1] < 0 ||
          connect(pair.side[1], reinterpret_cast<sockaddr*>(&target), sizeof target) != 0) {
        pair.close_both();
      } else {
        // A link adds its delay and nothing else: without TCP_NODELAY, Nagle holds a small write while an
        // earlier one awaits a (delayed) ACK, which stalls pipelined commands for up to 40 ms.
        const int one = 1;
        for (int fd : pair.side) setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        pairs.push_back(std::move(pair));
      }
    }
    std::size_t index = listeners;
    for (Pair& pair : pairs) {
      for (int d = 0; d < 2 && index < fds.size(); ++d, ++index) {
        if (!pair.open || (fds[index].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
        const ssize_t n = ::recv(pair.side[d], buffer, sizeof buffer, 0);
        if (n <= 0) {
          pair.close_both();
          continue;
        }
        if (cut(pair)) continue;
        std::string bytes(buffer, static_cast<std::size_t>(n));
        if (pair.filter) {
          try {
            bytes = pair.filter->pass(d == 0, bytes);
          } catch (const std::runtime_error&) {
            pair.close_both();  // what the filter cannot read must not pass unread
            continue;
          }
        }
        const std::int64_t due = now_us() + delay_us_;
        if (!resp_) {
          if (!bytes.empty()) pair.queue[d].push_back(Chunk{due, std::move(bytes)});
          continue;
        }
        std::string& partial = pair.partial[d];
        partial.append(bytes);
        try {
          // Bounded: each pass removes one whole message from `partial`.
          for (std::size_t length = resp_frame_length(partial); length > 0; length = resp_frame_length(partial)) {
            if (!prng_.chance_ppm(loss_ppm_[d])) pair.queue[d].push_back(Chunk{due, partial.substr(0, length)});
            partial.erase(0, length);
          }
        } catch (const std::runtime_error&) {
          pair.close_both();  // not RESP2: nothing sensible to forward
        }
      }
    }
    const std::int64_t after = now_us();
    for (Pair& pair : pairs) {
      if (cut(pair)) {
        for (int d = 0; d < 2; ++d) {
          pair.queue[d].clear();
          pair.partial[d].clear();
        }
      }
      for (int d = 0; d < 2 && pair.open; ++d) {
        while (pair.open && !pair.queue[d].empty() && pair.queue[d].front().due_us <= after) {
          if (!write_all(pair.side[1 - d], pair.queue[d].front().bytes)) {
            pair.close_both();
            break;
          }
          pair.queue[d].pop_front();
        }
      }
    }
    std::erase_if(pairs, [](const Pair& pair) { return !pair.open; });
  }
  for (Pair& pair : pairs) pair.close_both();
}

}  // namespace lockcheck::redis_backend
