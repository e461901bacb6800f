#pragma once
// One history line's fields read straight from its text, for the lines almost every history is made of: a
// flat JSON object whose values are integers, strings of printable ASCII without escapes, true, false or
// null (every line the simulator writes, but a meta line with lock_keys or script_files and a server line
// with holders). Building a JSON tree per line cost the checkers more than the simulation that wrote it.
// A line outside that shape is not scanned (scan() is false) and goes to the JSON parser, so what a line
// means, and every error message about it, stays the parser's.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace lockcheck::properties {

struct FlatValue {
  enum class Kind : std::uint8_t { null, boolean, integer, non_negative, string };
  Kind kind = Kind::null;
  bool boolean = false;
  std::int64_t integer = 0;        // Kind::integer: a negative number (or -0), as the JSON parser keeps it
  std::uint64_t non_negative = 0;  // Kind::non_negative: the JSON parser's unsigned number
  std::string_view text;           // Kind::string: the characters between the quotes
};

class FlatLine {
 public:
  // Reads `line`; false when it is not a flat object of such values (or has more than kMaxFields fields).
  bool scan(std::string_view line);
  // The named field (the last one when a name repeats: the JSON parser keeps the last); nullptr when absent.
  const FlatValue* find(std::string_view name) const;

 private:
  struct Field {
    std::string_view name;
    FlatValue value;
  };
  static constexpr std::size_t kMaxFields = 32;
  std::array<Field, kMaxFields> fields_{};
  std::size_t size_ = 0;
};

}  // namespace lockcheck::properties
