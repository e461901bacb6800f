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
    const Key key = key_of(name);
    // Bounded: the table has free slots (kSlots > kMaxFields), and a free slot ends the probe.
    for (std::size_t slot = slot_of(key, name.size());; slot = (slot + 1) % kSlots) {
      const std::uint8_t at = slots_[slot];
      if (at == 0) return nullptr;
      if (named(fields_[at - 1], name, key)) return &fields_[at - 1].value;
    }
  }

 private:
  // A name's first sixteen bytes (fewer when shorter, the rest zero) as two integers: what tells the
  // protocol's names apart without a call to memcmp (the longest beyond sixteen: replication_lag_max_us).
  struct Key {
    std::uint64_t first = 0;
    std::uint64_t second = 0;
    bool operator==(const Key&) const = default;
  };
  struct Field {
    std::string_view name;
    Key key;  // key_of(name)
    FlatValue value;
  };
  static constexpr std::size_t kMaxFields = 32;
  static constexpr std::size_t kSlots = 64;  // a power of two, twice kMaxFields: probes stay short

  // Bytes [from, from + 8) of `name` packed into one integer in registers (byte k at bits 8k): packing them
  // through memory (memcpy into an integer of fewer bytes) stalled every lookup on the store of its bytes.
  static std::uint64_t pack(std::string_view name, std::size_t from) {
    std::uint64_t packed = 0;
    const std::size_t end = std::min(name.size(), from + 8);
    for (std::size_t at = from; at < end; ++at) {
      packed |= static_cast<std::uint64_t>(static_cast<unsigned char>(name[at])) << (8 * (at - from));
    }
    return packed;
  }
  static Key key_of(std::string_view name) { return Key{pack(name, 0), name.size() > 8 ? pack(name, 8) : 0}; }
  static std::size_t slot_of(const Key& key, std::size_t size) {
    return static_cast<std::size_t>(((key.first ^ size) * 0x9E3779B97F4A7C15ull) >> 58);  // Fibonacci hashing: 6 bits
  }
  static bool named(const Field& field, std::string_view name, const Key& key) {
    return field.key == key && field.name.size() == name.size() &&
           (name.size() <= 2 * sizeof(std::uint64_t) || field.name.substr(16) == name.substr(16));
  }
  // Files fields_[index] under its name; a repeated name's slot then points at the later field.
  void index(std::size_t index);

  std::array<Field, kMaxFields> fields_{};
  std::array<std::uint8_t, kSlots> slots_{};  // a field's index + 1; 0: a free slot
  std::size_t size_ = 0;
};

}  // namespace lockcheck::properties
