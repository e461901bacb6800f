#include "redis/wire/resp_connection.hpp"

#include <utility>

namespace lockcheck::mock {

RespConnection::RespConnection(std::int64_t client_id, ConnectionLimits limits, std::string requirepass)
    : session_{.client_id = client_id, .requirepass = std::move(requirepass)}, parser_(limits.request), limits_(limits) {}

void RespConnection::abandon() {
  output_.clear();
  closing_ = true;
}

void RespConnection::receive(std::string_view bytes, Node& node) {
  if (closing_) return;
  parser_.feed(bytes);
  if (session_.blocked) return;  // later commands wait in the parser until the blocking pop is answered
  Command command;
  std::string error_text;
  // Each command consumes buffered input, so this loop is bounded by what was received.
  while (!closing_) {
    const RespParser::Status status = parser_.next(command, error_text);
    if (status == RespParser::Status::need_more) break;
    if (status == RespParser::Status::error) {
      encode_reply(Reply::error(error_text), output_, session_.resp);
      closing_ = true;  // as Redis: reply, then close
      break;
    }
    const ReplyMode mode_before = session_.reply_mode;
    Reply reply = node.execute(command, session_);
    if (session_.blocked) break;  // answered later through answer_unblocked()
    // CLIENT REPLY: OFF sends nothing, SKIP drops its own reply and the next command's; ON answers OK.
    const bool pushes = std::exchange(session_.replies_are_pushes, false);
    const bool withheld = std::exchange(session_.reply_withheld, false);
    bool send = !withheld && (pushes || (session_.reply_mode == ReplyMode::on && mode_before != ReplyMode::skip_next));
    if (mode_before == ReplyMode::skip_next && session_.reply_mode == ReplyMode::skip_next) {
      session_.reply_mode = ReplyMode::on;
    }
    if (send) {
      encode_reply(reply, output_, session_.resp);
      for (const Reply& extra : session_.extra_replies) encode_reply(extra, output_, session_.resp);
    }
    session_.extra_replies.clear();
    if (session_.close_requested) closing_ = true;
    if (output_.size() > limits_.max_output_bytes) abandon();
  }
}

void RespConnection::answer_unblocked(const Reply& reply, Node& node) {
  if (closing_) return;
  encode_reply(reply, output_, session_.resp);
  receive({}, node);  // the commands that arrived while it was blocked
}

}  // namespace lockcheck::mock
