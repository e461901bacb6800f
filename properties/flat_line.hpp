#pragma once
// One history line's fields read straight from its text, for the lines almost every history is made of: a
// flat JSON object whose values are integers, strings of printable ASCII without escapes, true, false or
// null (every line the simulator writes, but a meta line with lock_keys or script_files and a server line
// with holders). Building a JSON tree per line cost the checkers more than the simulation that wrote it.
// A line outside that shape is not scanned (scan() is false) and goes to the JSON parser, so what a line
// means, and every error message about it, stays the parser's.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
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
  // Inline and hashed (a parsed event asks for each of its fields by name, present or not: a dozen lookups
  // per line, which a walk over the fields made a third of parsing).
  const FlatValue* find(std::string_view name) const {
    const std::uint64_t head = head_of(name);
    // Bounded: the table has free slots (kSlots > kMaxFields), and a free slot ends the probe.
    for (std::size_t slot = slot_of(head, name.size());; slot = (slot + 1) % kSlots) {
      const std::uint8_t at = slots_[slot];
      if (at == 0) return nullptr;
      if (named(fields_[at - 1], name, head)) return &fields_[at - 1].value;
    }
  }

 private:
  struct Field {
    std::string_view name;
    std::uint64_t head = 0;  // head_of(name)
    FlatValue value;
  };
  static constexpr std::size_t kMaxFields = 32;
  static constexpr std::size_t kSlots = 64;  // a power of two, twice kMaxFields: probes stay short

  // The first eight bytes of `name` (fewer when shorter, the rest zero), in one integer.
  static std::uint64_t head_of(std::string_view name) {
    std::uint64_t head = 0;
    if (!name.empty()) std::memcpy(&head, name.data(), std::min(name.size(), sizeof head));
    return head;
  }
  static std::size_t slot_of(std::uint64_t head, std::size_t size) {
    return static_cast<std::size_t>(((head ^ size) * 0x9E3779B97F4A7C15ull) >> 58);  // Fibonacci hashing: 6 bits
  }
  static bool named(const Field& field, std::string_view name, std::uint64_t head) {
    return field.head == head && field.name.size() == name.size() &&
           (name.size() <= sizeof head || field.name.substr(sizeof head) == name.substr(sizeof head));
  }
  // Files fields_[index] under its name; a repeated name's slot then points at the later field.
  void index(std::size_t index);

  std::array<Field, kMaxFields> fields_{};
  std::array<std::uint8_t, kSlots> slots_{};  // a field's index + 1; 0: a free slot
  std::size_t size_ = 0;
};

}  // namespace lockcheck::properties
