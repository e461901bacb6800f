#pragma once
// RESP on the wire: an incremental request parser (multibulk and inline, pipelining, hard limits) and
// the reply encoder. No sockets here, so it is unit-testable on byte strings.
#include <cstddef>
#include <string>
#include <string_view>

#include "lockcheck/reply.hpp"

namespace lockcheck::mock {

struct RespLimits {
  std::size_t max_bulk_bytes = 64u << 20;        // one argument
  std::size_t max_array_elements = 1024 * 1024;  // arguments per command, as Redis
  std::size_t max_inline_bytes = 64u << 10;      // an inline command line, as Redis
  std::size_t max_request_bytes = 128u << 20;    // buffered input plus a command's parsed arguments
};

class RespParser {
 public:
  enum class Status { command, need_more, error };

  explicit RespParser(RespLimits limits = {}) : limits_(limits) {}

  // Appends received bytes. Returns false (and the parser is in error) when the buffer would pass the limit.
  bool feed(std::string_view bytes);
  // Extracts the next complete command. After `error`, `error_text` holds the reply text
  // ("ERR Protocol error: ...") and the connection should be closed.
  Status next(Command& out, std::string& error_text);
  std::size_t buffered_bytes() const { return buffer_.size() - pos_; }

 private:
  Status fail(std::string& error_text, std::string text);
  Status parse_inline(Command& out, std::string& error_text);
  void compact();

  RespLimits limits_;
  std::string buffer_;
  std::size_t pos_ = 0;
  bool failed_ = false;
  std::string failure_;
  // A multibulk command in progress.
  std::int64_t args_remaining_ = 0;
  std::int64_t bulk_length_ = -1;
  std::size_t args_bytes_ = 0;
  Command args_;
};

// Appends the encoding of `reply` in protocol `resp` (2 or 3). RESP2 sends RESP3 kinds as Redis does on a
// RESP2 connection (maps flat, doubles as bulk strings, booleans as 1/0) and nil as a nil bulk string.
void encode_reply(const Reply& reply, std::string& out, int resp = 2);

}  // namespace lockcheck::mock
