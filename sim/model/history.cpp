#include "model/history.hpp"
#include "lockcheck/assert.hpp"

#include <array>
#include <charconv>
#include <cstring>

namespace lockcheck::sim {
namespace {

// What each byte needs in a JSON string: 0 nothing, 1 a backslash before it ('"', '\\'), 2 nlohmann (control
// characters and every byte beyond ASCII).
constexpr std::array<unsigned char, 256> kEscape = [] {
  std::array<unsigned char, 256> table{};
  for (std::size_t byte = 0; byte < table.size(); ++byte) table[byte] = (byte < 0x20 || byte >= 0x80) ? 2 : 0;
  table['"'] = 1;
  table['\\'] = 1;
  return table;
}();

// Appends `text` as a JSON string exactly as nlohmann's dump() writes it (ensure_ascii off): printable
// ASCII is copied with '"' and '\' escaped here; any other byte (control characters, UTF-8, invalid UTF-8,
// which dump() refuses) goes through nlohmann, so its escapes and its errors stay the same.
void append_string(std::string& out, std::string_view text) {
  unsigned char needs = 0;
  for (const char c : text) needs |= kEscape[static_cast<unsigned char>(c)];
  if ((needs & 2) != 0) {
    out += Json(std::string(text)).dump();
    return;
  }
  out += '"';
  if (needs == 0) {
    out += text;  // the usual case (names, keys, tokens, commands): one copy
  } else {
    for (const char c : text) {
      if (kEscape[static_cast<unsigned char>(c)] != 0) out += '\\';
      out += c;
    }
  }
  out += '"';
}

// Whether a byte of `text` is a control character or beyond ASCII (kEscape's 2), eight bytes a step: every
// token, key and command of every recorded line is checked, and a byte at a time was most of recording one.
bool needs_nlohmann(std::string_view text) {
  constexpr std::uint64_t kHighBits = 0x8080808080808080ULL, kSpaces = 0x2020202020202020ULL;
  std::size_t at = 0;
  for (; at + 8 <= text.size(); at += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, text.data() + at, 8);
    // A high bit set: a byte beyond ASCII. Otherwise (word - spaces) & ~word has a byte's high bit exactly when
    // that byte is below 0x20 (the "has a byte less than n" test, exact while every byte is below 0x80).
    if (((word | ((word - kSpaces) & ~word)) & kHighBits) != 0) return true;
  }
  for (; at < text.size(); ++at) {
    if ((kEscape[static_cast<unsigned char>(text[at])] & 2) != 0) return true;
  }
  return false;
}

template <typename Integer>
void append_integer(std::string& out, Integer value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, end);
}

}  // namespace

HistoryLine::HistoryLine(std::int64_t t_us, std::string_view kind) : t_us_(t_us), kind_(kind) {
  fields_.reserve(192);  // one allocation for a typical line, which History::record then keeps
}

char* HistoryLine::begin_field(HistoryField::Type type, Named name, std::size_t value_size) {
  LOCKCHECK_ASSERT(name.text.size() <= UINT16_MAX);
  const std::size_t name_bytes = name.id == kNoFieldId ? 2 + name.text.size() : 0;
  const std::size_t at = fields_.size();
  fields_.resize(at + 2 + name_bytes + value_size);
  char* out = fields_.data() + at;
  out[0] = static_cast<char>(type);
  out[1] = static_cast<char>(name.id);
  if (name.id == kNoFieldId) {
    const auto name_size = static_cast<std::uint16_t>(name.text.size());
    std::memcpy(out + 2, &name_size, 2);
    std::memcpy(out + 4, name.text.data(), name.text.size());
  }
  return out + 2 + name_bytes;
}

HistoryLine& HistoryLine::add_signed(Named field, std::int64_t value) {
  std::memcpy(begin_field(HistoryField::Type::signed_integer, field, 8), &value, 8);
  return *this;
}

HistoryLine& HistoryLine::add_unsigned(Named field, std::uint64_t value) {
  std::memcpy(begin_field(HistoryField::Type::unsigned_integer, field, 8), &value, 8);
  return *this;
}

HistoryLine& HistoryLine::add_boolean(Named field, bool value) {
  *begin_field(HistoryField::Type::boolean, field, 1) = value ? 1 : 0;
  return *this;
}

HistoryLine& HistoryLine::add_text(HistoryField::Type type, Named field, std::string_view text) {
  LOCKCHECK_ASSERT(text.size() <= UINT32_MAX);
  char* out = begin_field(type, field, 4 + text.size());
  const auto size = static_cast<std::uint32_t>(text.size());
  std::memcpy(out, &size, 4);
  if (!text.empty()) std::memcpy(out + 4, text.data(), text.size());  // an empty view may have no data() at all
  return *this;
}

HistoryLine& HistoryLine::add_string(Named field, std::string_view value) {
  // Control characters and bytes beyond ASCII are nlohmann's to escape, and invalid UTF-8 its to refuse, here
  // and now as when lines were written as they were recorded.
  if (needs_nlohmann(value)) return add_text(HistoryField::Type::json, field, Json(std::string(value)).dump());
  return add_text(HistoryField::Type::string, field, value);
}

HistoryLine& HistoryLine::add_json(Named field, const Json& value) {
  // Scalars as the typed adds write them (what dump() gives); anything else through dump().
  switch (value.type()) {
    case Json::value_t::number_integer: return add_signed(field, value.get<std::int64_t>());
    case Json::value_t::number_unsigned: return add_unsigned(field, value.get<std::uint64_t>());
    case Json::value_t::boolean: return add_boolean(field, value.get<bool>());
    case Json::value_t::string: return add_string(field, value.get_ref<const std::string&>());
    default: break;
  }
  return add_text(HistoryField::Type::json, field, value.dump());
}

namespace {

// `{"i":N` (when numbered) `,"t":T,"kind":"K"`, each field, `}`: the text of one recorded line.
void render_line(std::string& out, const std::int64_t* index, std::int64_t t_us, std::string_view kind,
                 std::string_view fields) {
  out.reserve(out.size() + 64 + fields.size() * 2);
  if (index != nullptr) {
    out += "{\"i\":";
    append_integer(out, *index);
    out += ",\"t\":";
  } else {
    out += "{\"t\":";
  }
  append_integer(out, t_us);
  out += ",\"kind\":";
  append_string(out, kind);
  HistoryFieldReader reader(fields);
  HistoryField field;
  // Bounded: each pass consumes one field of a finite encoding.
  while (reader.next(field)) {
    out += ',';
    append_string(out, field.name);
    out += ':';
    switch (field.type) {
      case HistoryField::Type::signed_integer: append_integer(out, field.signed_value); break;
      case HistoryField::Type::unsigned_integer: append_integer(out, field.unsigned_value); break;
      case HistoryField::Type::boolean: out += field.boolean ? "true" : "false"; break;
      case HistoryField::Type::string: append_string(out, field.text); break;
      case HistoryField::Type::json: out += field.text; break;
    }
  }
  out += '}';
}

}  // namespace

void History::record(std::int64_t t_us, const char* kind, const Json& fields) {
  // A field named like the three leading ones would replace it in place; only the Json path does that.
  const bool simple = fields.is_object() && !fields.contains("i") && !fields.contains("t") && !fields.contains("kind");
  if (!simple) {
    LOCKCHECK_ASSERT(t_us >= last_t_us_);  // lines are recorded in true-time order
    last_t_us_ = t_us;
    Json line;
    line["i"] = static_cast<std::int64_t>(lines_.size());
    line["t"] = t_us;
    line["kind"] = kind;
    for (const auto& [name, value] : fields.items()) line[name] = value;
    Line recorded = append(t_us, kind, {});
    LOCKCHECK_ASSERT(texts_.size() < static_cast<std::size_t>(INT32_MAX));
    recorded.text = static_cast<std::int32_t>(texts_.size());
    texts_.push_back(line.dump());
    lines_.push_back(recorded);
    return;
  }
  HistoryLine line(t_us, kind);
  for (const auto& [name, value] : fields.items()) line.add_named(name, value);
  record(std::move(line));
}

std::string HistoryLine::unnumbered() && {
  std::string text;
  render_line(text, nullptr, t_us_, kind_, fields_);
  return text;
}

void History::record(HistoryLine&& line) {
  LOCKCHECK_ASSERT(line.t_us_ >= last_t_us_);  // lines are recorded in true-time order
  last_t_us_ = line.t_us_;
  lines_.push_back(append(line.t_us_, line.kind_, line.fields_));
}

History::Line History::append(std::int64_t t_us, std::string_view kind, std::string_view fields) {
  LOCKCHECK_ASSERT(kind.size() <= UINT32_MAX && fields.size() <= UINT32_MAX);
  Line line;
  line.t_us = t_us;
  line.kind_at = bytes_.size();
  line.kind_size = static_cast<std::uint32_t>(kind.size());
  line.fields_size = static_cast<std::uint32_t>(fields.size());
  bytes_.append(kind);
  bytes_.append(fields);
  return line;
}

std::string History::line_text(std::size_t index) const {
  const LineView line = this->line(index);
  if (!line.text.empty()) return std::string(line.text);
  std::string text;
  const auto number = static_cast<std::int64_t>(index);
  render_line(text, &number, line.t_us, line.kind, line.fields);
  return text;
}

const std::vector<std::string>& History::lines() const {
  const std::lock_guard lock(text_.mutex);
  std::vector<std::string>& rendered = text_.lines;
  // Bounded: one pass per line not yet rendered.
  for (std::size_t index = rendered.size(); index < lines_.size(); ++index) rendered.push_back(line_text(index));
  return rendered;
}

std::string History::jsonl() const {
  std::string text;
  for (const auto& line : lines()) {
    text += line;
    text += '\n';
  }
  return text;
}

std::uint64_t History::hash() const {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const auto& line : lines()) {
    for (unsigned char c : line) {
      hash ^= c;
      hash *= 0x100000001b3ULL;
    }
    hash ^= '\n';
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

}  // namespace lockcheck::sim
