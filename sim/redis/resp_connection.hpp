#pragma once
// One client connection's protocol state, without the socket: bytes in, replies out. The RESP server owns
// one per accepted socket; the RESP fuzzer drives it directly, so both run exactly the same request path.
// `requirepass` is enforced here (as redis-server's `requirepass`): until AUTH succeeds, every command but
// AUTH and QUIT gets NOAUTH.
#include <cstddef>
#include <string>
#include <string_view>

#include "node.hpp"
#include "resp_protocol.hpp"
#include "session.hpp"

namespace lockcheck::mock {

struct ConnectionLimits {
  RespLimits request{};
  std::size_t max_output_bytes = 256u << 20;  // a client that never reads is disconnected past this
};

class RespConnection {
 public:
  // An empty `requirepass` means no password: AUTH then behaves as on an unconfigured redis-server.
  RespConnection(std::int64_t client_id, ConnectionLimits limits, std::string requirepass);

  // Parses `bytes`, runs every complete command on `node` and appends the replies to output().
  // After a protocol error, QUIT or an output overflow, closing() is true and further input is ignored.
  void receive(std::string_view bytes, Node& node);

  std::string& output() { return output_; }
  const std::string& output() const { return output_; }
  Session& session() { return session_; }
  bool closing() const { return closing_; }
  // The peer is gone: drop pending output and close.
  void abandon();

 private:
  Reply answer(const Command& command, Node& node);
  Reply authenticate(const Command& command);

  Session session_;
  RespParser parser_;
  ConnectionLimits limits_;
  std::string requirepass_;
  bool authenticated_;
  std::string output_;
  bool closing_ = false;
};

}  // namespace lockcheck::mock
