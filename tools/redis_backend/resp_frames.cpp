#include "resp_frames.hpp"

#include <charconv>
#include <stdexcept>
#include <vector>

namespace lockcheck::redis_backend {
namespace {

// The integer on the line starting at `pos` (after the type byte) and where the next line starts; next = 0
// when the line is not complete yet.
long long read_line_number(std::string_view bytes, std::size_t pos, std::size_t& next) {
  const std::size_t end = bytes.find("\r\n", pos);
  if (end == std::string_view::npos) {
    next = 0;
    return 0;
  }
  long long value = 0;
  const auto [stop, error] = std::from_chars(bytes.data() + pos, bytes.data() + end, value);
  if (error != std::errc() || stop != bytes.data() + end) throw std::runtime_error("not RESP2: bad length");
  next = end + 2;
  return value;
}

}  // namespace

std::size_t resp_frame_length(std::string_view bytes) {
  std::vector<long long> remaining{1};  // elements still to read, per open array level
  std::size_t pos = 0;
  // Bounded: every pass consumes at least one line of `bytes`.
  while (!remaining.empty()) {
    if (pos >= bytes.size()) return 0;
    const char type = bytes[pos];
    std::size_t next = 0;
    if (type == '+' || type == '-' || type == ':') {
      const std::size_t end = bytes.find("\r\n", pos);
      if (end == std::string_view::npos) return 0;
      next = end + 2;
    } else if (type == '$') {
      const long long length = read_line_number(bytes, pos + 1, next);
      if (next == 0) return 0;
      if (length >= 0) {
        next += static_cast<std::size_t>(length) + 2;
        if (next > bytes.size()) return 0;
      }
    } else if (type == '*') {
      const long long count = read_line_number(bytes, pos + 1, next);
      if (next == 0) return 0;
      if (count > 0) {
        if (remaining.size() >= 32) throw std::runtime_error("not RESP2: nested too deep");
        --remaining.back();
        remaining.push_back(count);
        pos = next;
        continue;
      }
    } else {
      throw std::runtime_error("not RESP2: unknown type byte");
    }
    pos = next;
    --remaining.back();
    while (!remaining.empty() && remaining.back() == 0) remaining.pop_back();
  }
  return pos;
}

}  // namespace lockcheck::redis_backend
