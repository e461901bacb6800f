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

#include "model/history.hpp"

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
  // A line the simulator recorded (i, t, kind and its fields), read without text; false when a field's value
  // is JSON text (an array, an object, a string nlohmann escapes) or the line has more than kMaxFields
  // fields: such a line goes to the JSON parser as text.
  bool assign(std::int64_t index, const sim::History::LineView& line);
  // The named field (the last one when a name repeats: the JSON parser keeps the last); nullptr when absent.
  // Inline and hashed (a parsed event asks for each of its fields by name, present or not: a dozen lookups
  // per line, which a walk over the fields made a third of parsing).
  const FlatValue* find(std::string_view name) const {
    // Bounded: the table has free slots (kSlots > kMaxFields), and a free slot ends the probe.
    for (std::size_t slot = slot_of(name);; slot = (slot + 1) % kSlots) {
      const std::uint8_t at = slots_[slot];
      if (at == 0) return nullptr;
      if (same_name(fields_[at - 1].name, name)) return &fields_[at - 1].value;
    }
  }

 private:
  struct Field {
    std::string_view name;
    FlatValue value;
  };
  static constexpr std::size_t kMaxFields = 32;
  static constexpr std::size_t kSlots = 64;  // a power of two, twice kMaxFields: probes stay short

  // A name's slot from its length and its first, middle and last bytes, three loads and no loop: the protocol's
  // names differ there (valid_until and valid_until_local by length), and a collision costs one more probe.
  // Packing a name's bytes into integers for the hash took a third of reading a recorded line.
  static std::size_t slot_of(std::string_view name) {
    const std::size_t size = name.size();
    if (size == 0) return 0;
    const auto byte = [&](std::size_t at) { return static_cast<std::uint64_t>(static_cast<unsigned char>(name[at])); };
    const std::uint64_t mixed = size | byte(0) << 8 | byte(size / 2) << 16 | byte(size - 1) << 24;
    return static_cast<std::size_t>((mixed * 0x9E3779B97F4A7C15ull) >> 58);  // Fibonacci hashing: 6 bits
  }
  // Two names equal, compared inline: names are short, and a call to memcmp for each probe was a seventh of
  // reading a recorded line. From eight bytes on, eight at a time (the last eight may overlap the ones before).
  static bool same_name(std::string_view a, std::string_view b) {
    const std::size_t size = a.size();
    if (size != b.size()) return false;
    if (size < 8) {
      for (std::size_t at = 0; at < size; ++at) {
        if (a[at] != b[at]) return false;
      }
      return true;
    }
    const auto eight = [](const char* bytes) {
      std::uint64_t word = 0;
      std::memcpy(&word, bytes, sizeof word);
      return word;
    };
    for (std::size_t at = 0; at + 8 < size; at += 8) {
      if (eight(a.data() + at) != eight(b.data() + at)) return false;
    }
    return eight(a.data() + size - 8) == eight(b.data() + size - 8);
  }
  // Files fields_[index] under its name; a repeated name's slot then points at the later field.
  void index(std::size_t index);

  std::array<Field, kMaxFields> fields_{};
  std::array<std::uint8_t, kSlots> slots_{};  // a field's index + 1; 0: a free slot
  std::size_t size_ = 0;
};

}  // namespace lockcheck::properties
