#include "flat_line.hpp"

#include <charconv>
#include <cstdint>
#include <cstring>
#include <system_error>

namespace lockcheck::properties {
namespace {

class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  void skip_space() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r')) ++at_;
  }
  bool take(char c) {
    skip_space();
    if (at_ >= text_.size() || text_[at_] != c) return false;
    ++at_;
    return true;
  }
  bool at_end() {
    skip_space();
    return at_ == text_.size();
  }
  char peek() {
    skip_space();
    return at_ < text_.size() ? text_[at_] : '\0';
  }

  // A string of printable ASCII without escapes; anything else (an escape, a control character, a byte of
  // UTF-8 the parser would validate) is not for this scanner.
  bool string(std::string_view& out) {
    if (!take('"')) return false;
    const std::size_t begin = at_;
    // Eight bytes at a time while none of them ends the string or needs the parser (tokens and values are
    // most of a line's bytes), then byte by byte.
    while (at_ + 8 <= text_.size() && plain_eight(text_.data() + at_)) at_ += 8;
    for (; at_ < text_.size(); ++at_) {
      const auto byte = static_cast<unsigned char>(text_[at_]);
      if (byte == '"') {
        out = text_.substr(begin, at_ - begin);
        ++at_;
        return true;
      }
      if (byte < 0x20 || byte >= 0x80 || byte == '\\') return false;
    }
    return false;
  }

  // Whether none of the eight bytes at `bytes` is a quote, a backslash, a control character or beyond ASCII
  // (the classic test for a zero byte, on each byte XOR the character sought).
  static bool plain_eight(const char* bytes) {
    constexpr std::uint64_t kOnes = 0x0101010101010101ull;
    constexpr std::uint64_t kHighs = 0x8080808080808080ull;
    std::uint64_t word = 0;
    std::memcpy(&word, bytes, sizeof word);
    const auto has_zero = [](std::uint64_t w) { return (w - kOnes) & ~w & kHighs; };
    const std::uint64_t below_space = (word - kOnes * 0x20) & ~word & kHighs;
    return ((word & kHighs) | below_space | has_zero(word ^ (kOnes * '"')) | has_zero(word ^ (kOnes * '\\'))) == 0;
  }

  // An integer as JSON writes it: -?(0|[1-9][0-9]*), not followed by a fraction or an exponent (a float is
  // the parser's), within 64 bits (a larger one the parser turns into a float).
  bool number(FlatValue& out) {
    skip_space();
    const bool negative = at_ < text_.size() && text_[at_] == '-';
    const std::size_t digits = at_ + (negative ? 1 : 0);
    std::size_t end = digits;
    while (end < text_.size() && text_[end] >= '0' && text_[end] <= '9') ++end;
    if (end == digits || (text_[digits] == '0' && end - digits > 1)) return false;
    if (end < text_.size() && (text_[end] == '.' || text_[end] == 'e' || text_[end] == 'E')) return false;
    const char* first = text_.data() + at_;
    const char* last = text_.data() + end;
    const auto read = [&](auto& into) {
      const auto [ptr, error] = std::from_chars(first, last, into);
      return ptr == last && error == std::errc{};
    };
    out.kind = negative ? FlatValue::Kind::integer : FlatValue::Kind::non_negative;
    if (!(negative ? read(out.integer) : read(out.non_negative))) return false;
    at_ = end;
    return true;
  }

  bool literal(std::string_view word) {
    skip_space();
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
};

bool scan_value(Cursor& in, FlatValue& value) {
  switch (in.peek()) {
    case '"': value.kind = FlatValue::Kind::string; return in.string(value.text);
    case 't': value.kind = FlatValue::Kind::boolean; value.boolean = true; return in.literal("true");
    case 'f': value.kind = FlatValue::Kind::boolean; value.boolean = false; return in.literal("false");
    case 'n': value.kind = FlatValue::Kind::null; return in.literal("null");
    default: return in.number(value);
  }
}

}  // namespace

bool FlatLine::scan(std::string_view line) {
  size_ = 0;
  by_id_.fill(0);
  Cursor in(line);
  if (!in.take('{')) return false;
  if (in.take('}')) return in.at_end();
  // Each pass reads one field; a line has at most kMaxFields of them.
  for (; size_ < kMaxFields; ++size_) {
    Field& field = fields_[size_];
    field.value = FlatValue{};
    if (!in.string(field.name) || !in.take(':') || !scan_value(in, field.value)) return false;
    index(size_);
    if (in.take(',')) continue;
    if (!in.take('}')) return false;
    ++size_;
    return in.at_end();
  }
  return false;
}

bool FlatLine::assign(std::int64_t index, const sim::History::LineView& line) {
  size_ = 0;
  by_id_.fill(0);
  if (!line.text.empty()) return false;
  const auto add_integer = [this](std::string_view name, std::int64_t value) {
    Field& field = fields_[size_];
    field.name = name;
    field.value = FlatValue{};
    // As the JSON parser keeps a number: unsigned unless negative.
    if (value < 0) {
      field.value.kind = FlatValue::Kind::integer;
      field.value.integer = value;
    } else {
      field.value.kind = FlatValue::Kind::non_negative;
      field.value.non_negative = static_cast<std::uint64_t>(value);
    }
  };
  // The simulator recorded each name's number (history_fields.hpp): no name is looked up here.
  const auto file = [this](std::uint8_t id) {
    if (id != kNoFieldId) by_id_[id] = static_cast<std::uint8_t>(size_ + 1);
    ++size_;
  };
  add_integer("i", index);
  file(FieldName("i").id);
  add_integer("t", line.t_us);
  file(FieldName("t").id);
  fields_[size_].name = "kind";
  fields_[size_].value = FlatValue{FlatValue::Kind::string, false, 0, 0, line.kind};
  file(FieldName("kind").id);
  sim::HistoryFieldReader reader(line.fields);
  sim::HistoryField recorded;
  // Bounded: at most kMaxFields passes.
  while (reader.next(recorded)) {
    if (size_ == kMaxFields) return false;
    switch (recorded.type) {
      case sim::HistoryField::Type::signed_integer: add_integer(recorded.name, recorded.signed_value); break;
      case sim::HistoryField::Type::unsigned_integer:
        fields_[size_].name = recorded.name;
        fields_[size_].value = FlatValue{FlatValue::Kind::non_negative, false, 0, recorded.unsigned_value, {}};
        break;
      case sim::HistoryField::Type::boolean:
        fields_[size_].name = recorded.name;
        fields_[size_].value = FlatValue{FlatValue::Kind::boolean, recorded.boolean, 0, 0, {}};
        break;
      case sim::HistoryField::Type::string:
        fields_[size_].name = recorded.name;
        fields_[size_].value = FlatValue{FlatValue::Kind::string, false, 0, 0, recorded.text};
        break;
      case sim::HistoryField::Type::json: return false;
    }
    file(recorded.id);
  }
  return true;
}

}  // namespace lockcheck::properties
