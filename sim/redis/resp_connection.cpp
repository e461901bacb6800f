#include "resp_connection.hpp"

#include <cctype>

namespace lockcheck::mock {
namespace {

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// Compares without an early exit on the first differing byte, so reply timing does not reveal how much of
// a guessed password was right.
bool same_secret(std::string_view given, std::string_view expected) {
  unsigned char difference = given.size() == expected.size() ? 0 : 1;
  for (std::size_t i = 0; i < given.size(); ++i) {
    difference |= static_cast<unsigned char>(given[i] ^ expected[i % (expected.empty() ? 1 : expected.size())]);
  }
  return difference == 0 && !expected.empty();
}

}  // namespace

RespConnection::RespConnection(std::int64_t client_id, ConnectionLimits limits, std::string requirepass)
    : session_{.client_id = client_id},
      parser_(limits.request),
      limits_(limits),
      requirepass_(std::move(requirepass)),
      authenticated_(requirepass_.empty()) {}

void RespConnection::abandon() {
  output_.clear();
  closing_ = true;
}

void RespConnection::receive(std::string_view bytes, Node& node) {
  if (closing_) return;
  parser_.feed(bytes);
  Command command;
  std::string error_text;
  // Each command consumes buffered input, so this loop is bounded by what was received.
  while (!closing_) {
    const RespParser::Status status = parser_.next(command, error_text);
    if (status == RespParser::Status::need_more) break;
    if (status == RespParser::Status::error) {
      encode_reply(Reply::error(error_text), output_);
      closing_ = true;  // as Redis: reply, then close
      break;
    }
    encode_reply(answer(command, node), output_);
    for (const Reply& extra : session_.extra_replies) encode_reply(extra, output_);
    session_.extra_replies.clear();
    if (session_.close_requested) closing_ = true;
    if (output_.size() > limits_.max_output_bytes) abandon();
  }
}

Reply RespConnection::answer(const Command& command, Node& node) {
  if (requirepass_.empty() || command.empty()) return node.execute(command, session_);
  if (equals_ignoring_case(command[0], "auth")) return authenticate(command);
  if (!authenticated_ && !equals_ignoring_case(command[0], "quit")) return Reply::error("NOAUTH Authentication required.");
  return node.execute(command, session_);
}

Reply RespConnection::authenticate(const Command& command) {
  // AUTH password, or AUTH default password: the only user is "default", as with redis-server's requirepass.
  if (command.size() != 2 && command.size() != 3) {
    return Reply::error("ERR wrong number of arguments for 'auth' command");
  }
  const bool default_user = command.size() == 2 || command[1] == "default";
  if (default_user && same_secret(command.back(), requirepass_)) {
    authenticated_ = true;
    return Reply::ok();
  }
  return Reply::error("WRONGPASS invalid username-password pair or user is disabled.");
}

}  // namespace lockcheck::mock
