#pragma once
// A RESP2 reply, the one currency between lock algorithms, the hiredis port and the embedded mock.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lockcheck {

struct Reply {
  enum class Kind : std::uint8_t { nil, status, error, integer, bulk, array };

  Kind kind = Kind::nil;
  std::int64_t integer = 0;
  std::string text;  // status, error or bulk payload
  std::vector<Reply> elements;

  static Reply nil() { return {}; }
  static Reply status(std::string text) { return {Kind::status, 0, std::move(text), {}}; }
  static Reply ok() { return status("OK"); }
  static Reply error(std::string text) { return {Kind::error, 0, std::move(text), {}}; }
  static Reply integer_reply(std::int64_t value) { return {Kind::integer, value, {}, {}}; }
  static Reply bulk(std::string text) { return {Kind::bulk, 0, std::move(text), {}}; }
  static Reply array(std::vector<Reply> elements) { return {Kind::array, 0, {}, std::move(elements)}; }

  bool is_nil() const { return kind == Kind::nil; }
  bool is_error() const { return kind == Kind::error; }
  bool is_integer(std::int64_t value) const { return kind == Kind::integer && integer == value; }
  // The error code is the first word of an error reply: "NOSCRIPT", "WRONGTYPE", "ERR".
  std::string_view error_code() const;

  friend bool operator==(const Reply&, const Reply&) = default;
};

// Human-readable form in the style of redis-cli, for messages and test failures.
std::string to_string(const Reply& reply);

// A command is its argument vector, binary-safe.
using Command = std::vector<std::string>;

}  // namespace lockcheck
