#pragma once
// One client connection's protocol state, without the socket: bytes in, replies out. The RESP server owns
// one per accepted socket; the RESP fuzzer drives it directly, so both run exactly the same request path.
// `requirepass` is the password the Node asks this connection for (as redis-server's `requirepass`):
// until AUTH or HELLO ... AUTH succeeds, commands get NOAUTH. Replies are encoded in the protocol the
// connection's HELLO chose, and CLIENT REPLY OFF/SKIP is honoured here.
#include <cstddef>
#include <string>
#include <string_view>

#include "redis/server/node.hpp"
#include "redis/wire/resp_protocol.hpp"
#include "redis/server/session.hpp"

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
  const Session& session() const { return session_; }
  bool closing() const { return closing_; }
  // Appends an out-of-band message (pub/sub) in this connection's protocol.
  void push(const Reply& message) { encode_reply(message, output_, session_.resp); }
  // The late reply to this connection's blocking pop; then runs the commands pipelined behind it.
  void answer_unblocked(const Reply& reply, Node& node);
  // The peer is gone: drop pending output and close.
  void abandon();

 private:
  Session session_;
  RespParser parser_;
  ConnectionLimits limits_;
  std::string output_;
  bool closing_ = false;
};

}  // namespace lockcheck::mock
