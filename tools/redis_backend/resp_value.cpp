#include "resp_value.hpp"

#include <charconv>
#include <stdexcept>

namespace lockcheck::redis_backend {
namespace {

std::string_view line_at(std::string_view bytes, std::size_t& pos) {
  const std::size_t end = bytes.find("\r\n", pos);
  if (end == std::string_view::npos) throw std::runtime_error("not RESP2: a line without its end");
  const std::string_view line = bytes.substr(pos, end - pos);
  pos = end + 2;
  return line;
}

long long number_of(std::string_view text) {
  long long value = 0;
  const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || stop != text.data() + text.size()) throw std::runtime_error("not RESP2: bad length");
  return value;
}

// Nesting is bounded by `depth` (32, as resp_frame_length), so a hostile reply cannot exhaust the stack.
RespValue parse_at(std::string_view bytes, std::size_t& pos, int depth) {
  if (depth > 32) throw std::runtime_error("not RESP2: nested too deep");
  if (pos >= bytes.size()) throw std::runtime_error("not RESP2: truncated");
  RespValue value;
  value.type = bytes[pos++];
  const std::string_view line = line_at(bytes, pos);
  switch (value.type) {
    case '+':
    case '-':
    case ':':
      value.text = line;
      return value;
    case '$': {
      const long long length = number_of(line);
      if (length < 0) {
        value.null = true;
        return value;
      }
      if (pos + static_cast<std::size_t>(length) + 2 > bytes.size()) throw std::runtime_error("not RESP2: truncated bulk string");
      value.text = bytes.substr(pos, static_cast<std::size_t>(length));
      pos += static_cast<std::size_t>(length) + 2;
      return value;
    }
    case '*': {
      const long long count = number_of(line);
      if (count < 0) {
        value.null = true;
        return value;
      }
      // Bounded: each element consumes at least one line of `bytes`.
      for (long long i = 0; i < count; ++i) value.elements.push_back(parse_at(bytes, pos, depth + 1));
      return value;
    }
    default:
      throw std::runtime_error("not RESP2: unknown type byte");
  }
}

void serialize_into(const RespValue& value, std::string& out) {
  out += value.type;
  if (value.null) {
    out += "-1\r\n";
    return;
  }
  if (value.type == '$') {
    out += std::to_string(value.text.size()) + "\r\n" + value.text + "\r\n";
  } else if (value.type == '*') {
    out += std::to_string(value.elements.size()) + "\r\n";
    for (const RespValue& element : value.elements) serialize_into(element, out);
  } else {
    out += value.text + "\r\n";
  }
}

}  // namespace

RespValue parse_resp(std::string_view frame) {
  std::size_t pos = 0;
  RespValue value = parse_at(frame, pos, 0);
  if (pos != frame.size()) throw std::runtime_error("not RESP2: bytes after the message");
  return value;
}

std::string serialize_resp(const RespValue& value) {
  std::string out;
  serialize_into(value, out);
  return out;
}

}  // namespace lockcheck::redis_backend
