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

#include "field_names.hpp"
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
  // A name the parser reads is found by its number (field_names.hpp), any other by a walk over the fields.
  const FlatValue* field(FieldName name) const { return by_number(name.id); }
  const FlatValue* find(std::string_view name) const {
    if (const std::uint8_t id = field_id(name); id != kNoFieldId) return by_number(id);
    for (std::size_t at = size_; at-- > 0;) {  // bounded by the fields; the last of a repeated name first
      if (detail::same_name(fields_[at].name, name)) return &fields_[at].value;
    }
    return nullptr;
  }

 private:
  struct Field {
    std::string_view name;
    FlatValue value;
  };
  static constexpr std::size_t kMaxFields = 32;

  const FlatValue* by_number(std::uint8_t id) const {
    const std::uint8_t at = by_id_[id];
    return at == 0 ? nullptr : &fields_[at - 1].value;
  }
  // Files fields_[index] under its name's number; a repeated name then points at the later field.
  void index(std::size_t index) {
    const std::uint8_t id = field_id(fields_[index].name);
    if (id != kNoFieldId) by_id_[id] = static_cast<std::uint8_t>(index + 1);
  }

  std::array<Field, kMaxFields> fields_{};
  std::array<std::uint8_t, kFieldNameCount> by_id_{};  // by a name's number: its field's index + 1; 0: absent
  std::size_t size_ = 0;
};

}  // namespace lockcheck::properties
