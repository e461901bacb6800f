#pragma once
// A plain blocking RESP connection (to redis-server or a served mock) that sends raw requests and reads
// whole RESP2/RESP3 replies as bytes, for byte-for-byte comparisons.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <stdexcept>
#include <string>

#include "lockcheck/reply.hpp"

namespace lockcheck::mock::testing {

// The end of the first complete RESP2/RESP3 reply in `bytes` from `pos`, or npos while it is incomplete.
inline std::size_t reply_end(const std::string& bytes, std::size_t pos, int depth = 0) {
  if (pos >= bytes.size() || depth > 32) return std::string::npos;
  const std::size_t line_end = bytes.find("\r\n", pos);
  if (line_end == std::string::npos) return std::string::npos;
  const char type = bytes[pos];
  const std::string header = bytes.substr(pos + 1, line_end - pos - 1);
  std::size_t next = line_end + 2;
  switch (type) {
    case '$': case '=': case '!': {
      const long long length = std::stoll(header);
      if (length < 0) return next;
      return bytes.size() >= next + static_cast<std::size_t>(length) + 2 ? next + static_cast<std::size_t>(length) + 2
                                                                        : std::string::npos;
    }
    case '*': case '~': case '>': case '%': case '|': {
      long long count = std::stoll(header);
      if (type == '%' || type == '|') count *= 2;
      for (long long i = 0; i < count && next != std::string::npos; ++i) next = reply_end(bytes, next, depth + 1);
      return next;
    }
    default: return next;  // + - : _ # , (
  }
}

// A plain blocking RESP connection, reading whole replies.
class RawConnection {
 public:
  RawConnection(const std::string& host, int port) : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    inet_pton(AF_INET, host.c_str(), &address.sin_addr);
    if (connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) throw std::runtime_error("connect");
    timeval timeout{.tv_sec = 5, .tv_usec = 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  }
  ~RawConnection() { close(fd_); }
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  // Sends `request` and returns the bytes of `replies` complete replies.
  std::string exchange(const std::string& request, std::size_t replies) {
    if (!send_request(request)) return "send failed";
    return read_replies(replies);
  }
  bool send_request(const std::string& request) {
    return send(fd_, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size());
  }
  // The bytes of the next `replies` complete replies (pushes count as replies).
  std::string read_replies(std::size_t replies) {
    // Each read adds bytes or fails; the socket timeout bounds a silent server.
    for (int reads = 0; reads < 10'000; ++reads) {
      std::size_t end = 0;
      for (std::size_t i = 0; i < replies && end != std::string::npos; ++i) end = reply_end(buffer_, end);
      if (end != std::string::npos) {
        std::string out = buffer_.substr(0, end);
        buffer_.erase(0, end);
        return out;
      }
      char chunk[4096];
      const ssize_t received = recv(fd_, chunk, sizeof chunk, 0);
      if (received <= 0) return "read failed: " + buffer_;
      buffer_.append(chunk, static_cast<std::size_t>(received));
    }
    return "too many reads";
  }

 private:
  int fd_;
  std::string buffer_;
};

// A command as failure messages quote it.
inline std::string show(const Command& command) {
  std::string out;
  for (const std::string& arg : command) out += (out.empty() ? "" : " ") + ("\"" + arg + "\"");
  return out;
}

inline std::string encode_request(const Command& command) {
  std::string out = "*" + std::to_string(command.size()) + "\r\n";
  for (const std::string& arg : command) out += "$" + std::to_string(arg.size()) + "\r\n" + arg + "\r\n";
  return out;
}

}  // namespace lockcheck::mock::testing
