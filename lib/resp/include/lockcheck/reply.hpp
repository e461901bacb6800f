#pragma once
// A RESP value, the one currency between lock algorithms, the hiredis port and the embedded mock.
// It lives in its own target (lockcheck_resp) so the library and the mock share it without either
// depending on the other. RESP2 kinds come first; the RESP3 kinds are what a server sends on a HELLO 3
// connection, and to_resp2() turns them into what the same server sends on a RESP2 connection.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lockcheck {

struct Reply {
  enum class Kind : std::uint8_t {
    nil, status, error, integer, bulk, array,
    // RESP3 only. map: `elements` holds key, value, key, value...; double_number and big_number keep their
    // wire text in `text`; boolean keeps 0/1 in `integer`; verbatim keeps its payload in `text` (format "txt").
    map, set, double_number, boolean, big_number, verbatim, push,
  };

  Kind kind = Kind::nil;
  std::int64_t integer = 0;
  std::string text;  // status, error or bulk payload
  std::vector<Reply> elements;

  static Reply nil() { return {}; }
  // A null where an array was due (LPOP key count, EXEC after a broken WATCH, a pop that timed out): RESP2 sends
  // it as "*-1", not "$-1"; RESP3 and every reader see a plain null. `integer` 1 marks it.
  static Reply null_array() { return {Kind::nil, 1, {}, {}}; }
  static Reply status(std::string text) { return {Kind::status, 0, std::move(text), {}}; }
  static Reply ok() { return status("OK"); }
  static Reply error(std::string text) { return {Kind::error, 0, std::move(text), {}}; }
  static Reply integer_reply(std::int64_t value) { return {Kind::integer, value, {}, {}}; }
  static Reply bulk(std::string text) { return {Kind::bulk, 0, std::move(text), {}}; }
  static Reply array(std::vector<Reply> elements) { return {Kind::array, 0, {}, std::move(elements)}; }
  static Reply map(std::vector<Reply> keys_and_values) { return {Kind::map, 0, {}, std::move(keys_and_values)}; }
  static Reply set(std::vector<Reply> elements) { return {Kind::set, 0, {}, std::move(elements)}; }
  static Reply push(std::vector<Reply> elements) { return {Kind::push, 0, {}, std::move(elements)}; }
  // `text` as the server prints it ("%.17g", "inf", "-inf", "nan").
  static Reply double_reply(std::string text) { return {Kind::double_number, 0, std::move(text), {}}; }
  static Reply boolean(bool value) { return {Kind::boolean, value ? 1 : 0, {}, {}}; }
  static Reply big_number(std::string digits) { return {Kind::big_number, 0, std::move(digits), {}}; }
  static Reply verbatim(std::string text) { return {Kind::verbatim, 0, std::move(text), {}}; }

  bool is_nil() const { return kind == Kind::nil; }
  bool is_error() const { return kind == Kind::error; }
  bool is_integer(std::int64_t value) const { return kind == Kind::integer && integer == value; }
  // Arrays, maps, sets and pushes carry elements.
  bool is_aggregate() const { return kind == Kind::array || kind == Kind::map || kind == Kind::set || kind == Kind::push; }
  // The error code is the first word of an error reply: "NOSCRIPT", "WRONGTYPE", "ERR".
  std::string_view error_code() const;

  friend bool operator==(const Reply&, const Reply&) = default;
};

// What a RESP2 connection receives for `reply`, in place: maps become flat arrays, sets and pushes arrays,
// doubles, big numbers and verbatim strings bulk strings, booleans the integers 1 and 0.
void to_resp2(Reply& reply);

// Human-readable form in the style of redis-cli, for messages and test failures.
std::string to_string(const Reply& reply);

// A command is its argument vector, binary-safe.
using Command = std::vector<std::string>;

}  // namespace lockcheck
