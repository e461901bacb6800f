#include "redis/wire/resp_protocol.hpp"

#include <cctype>

#include "redis/util/numbers.hpp"

namespace lockcheck::mock {
namespace {

// Splits an inline command line like Redis's sdssplitargs: spaces separate, "..." with escapes and
// '...' quote. Returns false on unbalanced quotes.
bool split_inline(std::string_view line, Command& out) {
  out.clear();
  std::size_t i = 0;
  // Each iteration consumes at least one character.
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i >= line.size()) break;
    std::string arg;
    char quote = 0;
    if (line[i] == '"' || line[i] == '\'') quote = line[i++];
    bool closed = quote == 0;
    while (i < line.size()) {
      char c = line[i];
      if (quote == 0) {
        if (std::isspace(static_cast<unsigned char>(c))) break;
        arg += c;
        ++i;
      } else if (quote == '"' && c == '\\' && i + 1 < line.size()) {
        char e = line[i + 1];
        arg += e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e;
        i += 2;
      } else if (c == quote) {
        ++i;
        closed = true;
        // A closing quote must be followed by a space or the end.
        if (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) return false;
        break;
      } else {
        arg += c;
        ++i;
      }
    }
    if (!closed) return false;
    out.push_back(std::move(arg));
  }
  return true;
}

}  // namespace

bool RespParser::feed(std::string_view bytes) {
  if (failed_) return false;
  if (buffered_bytes() + args_bytes_ + bytes.size() > limits_.max_request_bytes) {
    failed_ = true;
    failure_ = "ERR Protocol error: request too large";
    return false;
  }
  compact();
  buffer_.append(bytes);
  return true;
}

void RespParser::compact() {
  // Drop consumed bytes once they dominate the buffer, so memory tracks only unparsed input.
  if (pos_ > 0 && pos_ * 2 >= buffer_.size()) {
    buffer_.erase(0, pos_);
    pos_ = 0;
  }
}

RespParser::Status RespParser::fail(std::string& error_text, std::string text) {
  failed_ = true;
  failure_ = std::move(text);
  error_text = failure_;
  return Status::error;
}

RespParser::Status RespParser::parse_inline(Command& out, std::string& error_text) {
  std::size_t newline = buffer_.find('\n', pos_);
  if (newline == std::string::npos) {
    if (buffered_bytes() > limits_.max_inline_bytes) return fail(error_text, "ERR Protocol error: too big inline request");
    return Status::need_more;
  }
  std::string_view line(buffer_.data() + pos_, newline - pos_);
  if (line.size() > limits_.max_inline_bytes) return fail(error_text, "ERR Protocol error: too big inline request");
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (!split_inline(line, out)) return fail(error_text, "ERR Protocol error: unbalanced quotes in request");
  pos_ = newline + 1;
  return Status::command;
}

RespParser::Status RespParser::next(Command& out, std::string& error_text) {
  if (failed_) {
    error_text = failure_;
    return Status::error;
  }
  // Each iteration consumes input or returns; empty commands are skipped, bounded by the buffer size.
  for (std::size_t guard = 0; guard <= buffer_.size() + 1; ++guard) {
    if (args_remaining_ == 0) {
      if (pos_ >= buffer_.size()) return Status::need_more;
      if (buffer_[pos_] != '*') {
        Status status = parse_inline(out, error_text);
        if (status == Status::command && out.empty()) continue;  // blank line
        return status;
      }
      std::size_t end = buffer_.find("\r\n", pos_);
      if (end == std::string::npos) {
        if (buffered_bytes() > limits_.max_inline_bytes) return fail(error_text, "ERR Protocol error: too big mbulk count string");
        return Status::need_more;
      }
      auto count = parse_int64(std::string_view(buffer_).substr(pos_ + 1, end - pos_ - 1));
      if (!count || *count > static_cast<std::int64_t>(limits_.max_array_elements)) {
        return fail(error_text, "ERR Protocol error: invalid multibulk length");
      }
      pos_ = end + 2;
      if (*count <= 0) continue;  // "*0" and "*-1" are ignored, as Redis does
      args_remaining_ = *count;
      args_.clear();
      args_bytes_ = 0;
    }
    if (bulk_length_ < 0) {
      if (pos_ >= buffer_.size()) return Status::need_more;
      if (buffer_[pos_] != '$') {
        return fail(error_text, std::string("ERR Protocol error: expected '$', got '") + buffer_[pos_] + "'");
      }
      std::size_t end = buffer_.find("\r\n", pos_);
      if (end == std::string::npos) {
        if (buffered_bytes() > limits_.max_inline_bytes) return fail(error_text, "ERR Protocol error: too big bulk count string");
        return Status::need_more;
      }
      auto length = parse_int64(std::string_view(buffer_).substr(pos_ + 1, end - pos_ - 1));
      if (!length || *length < 0 || *length > static_cast<std::int64_t>(limits_.max_bulk_bytes)) {
        return fail(error_text, "ERR Protocol error: invalid bulk length");
      }
      bulk_length_ = *length;
      pos_ = end + 2;
    }
    auto length = static_cast<std::size_t>(bulk_length_);
    if (buffer_.size() - pos_ < length + 2) return Status::need_more;
    args_.emplace_back(buffer_, pos_, length);
    args_bytes_ += length;
    pos_ += length + 2;
    bulk_length_ = -1;
    if (--args_remaining_ == 0) {
      out = std::move(args_);
      args_ = Command{};
      args_bytes_ = 0;
      return Status::command;
    }
  }
  return Status::need_more;
}

namespace {

void encode_length(char type, std::size_t length, std::string& out) {
  out += type;
  out += std::to_string(length);
  out += "\r\n";
}

void encode_blob(char type, std::string_view prefix, const std::string& text, std::string& out) {
  encode_length(type, prefix.size() + text.size(), out);
  out += prefix;
  out += text;
  out += "\r\n";
}

void encode_line(char type, std::string_view text, std::string& out) {
  out += type;
  out += text;
  out += "\r\n";
}

}  // namespace

void encode_reply(const Reply& reply, std::string& out, int resp) {
  const bool resp3 = resp == 3;
  switch (reply.kind) {
    case Reply::Kind::nil: out += resp3 ? "_\r\n" : "$-1\r\n"; return;
    case Reply::Kind::null_array: out += resp3 ? "_\r\n" : "*-1\r\n"; return;
    case Reply::Kind::status: encode_line('+', reply.text, out); return;
    case Reply::Kind::error: encode_line('-', reply.text, out); return;
    case Reply::Kind::integer: encode_line(':', std::to_string(reply.integer), out); return;
    case Reply::Kind::bulk: encode_blob('$', {}, reply.text, out); return;
    case Reply::Kind::boolean:
      if (resp3) encode_line('#', reply.integer != 0 ? "t" : "f", out);
      else encode_line(':', reply.integer != 0 ? "1" : "0", out);
      return;
    case Reply::Kind::double_number:
      if (resp3) encode_line(',', reply.text, out);
      else encode_blob('$', {}, reply.text, out);
      return;
    case Reply::Kind::big_number:
      if (resp3) encode_line('(', reply.text, out);
      else encode_blob('$', {}, reply.text, out);
      return;
    case Reply::Kind::verbatim: encode_blob(resp3 ? '=' : '$', resp3 ? "txt:" : "", reply.text, out); return;
    case Reply::Kind::array:
    case Reply::Kind::map:
    case Reply::Kind::set:
    case Reply::Kind::push: {
      const bool map = reply.kind == Reply::Kind::map;
      char type = '*';
      if (resp3 && reply.kind == Reply::Kind::map) type = '%';
      if (resp3 && reply.kind == Reply::Kind::set) type = '~';
      if (resp3 && reply.kind == Reply::Kind::push) type = '>';
      encode_length(type, resp3 && map ? reply.elements.size() / 2 : reply.elements.size(), out);
      for (const Reply& element : reply.elements) encode_reply(element, out, resp);
      return;
    }
  }
}

}  // namespace lockcheck::mock
