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

template <typename Integer>
void append_integer(std::string& out, Integer value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, end);
}

bool plain(std::string_view text) {
  unsigned char needs = 0;
  for (const char c : text) needs |= kEscape[static_cast<unsigned char>(c)];
  return needs == 0;
}

// One field written in a stack buffer and appended to the line at once: a line has about ten fields, and
// each std::string append costs more than copying its few bytes.
class Piece {
 public:
  static constexpr std::size_t kMaxName = 64;
  static constexpr std::size_t kMaxString = 160;

  // `,"field":` when the name needs no escaping (the literal names the simulator writes); false otherwise,
  // and the caller writes the field the general way.
  bool name(std::string_view field) { return quoted(field, kMaxName, ",\"", "\":"); }
  // A string that needs no escaping, within kMaxString; false otherwise.
  bool string(std::string_view text) { return quoted(text, kMaxString, "\"", "\""); }
  template <typename Integer>
  void integer(Integer value) {
    size_ = static_cast<std::size_t>(std::to_chars(data_ + size_, data_ + sizeof data_, value).ptr - data_);
  }
  void put(std::string_view text) {
    std::memcpy(data_ + size_, text.data(), text.size());
    size_ += text.size();
  }
  std::string_view view() const { return {data_, size_}; }

 private:
  bool quoted(std::string_view text, std::size_t max, std::string_view open, std::string_view close) {
    if (text.size() > max || !plain(text)) return false;
    put(open);
    put(text);
    put(close);
    return true;
  }

  char data_[kMaxName + kMaxString + 32];
  std::size_t size_ = 0;
};

}  // namespace

HistoryLine::HistoryLine(std::int64_t t_us, std::string_view kind) : t_us_(t_us) {
  text_.reserve(256);  // one allocation for a typical line, which History::record then keeps
  Piece piece;
  piece.put(",\"t\":");
  piece.integer(t_us);
  piece.put(",\"kind\":");
  if (piece.string(kind)) {
    text_ += piece.view();
    return;
  }
  text_ += piece.view();
  append_string(text_, kind);
}

void HistoryLine::name(std::string_view name) {
  text_ += ',';
  append_string(text_, name);
  text_ += ':';
}

// One body for both integer kinds: the field name and digits through the short-line Piece when they fit.
template <typename Integer>
HistoryLine& HistoryLine::add_integer(std::string_view field, Integer value) {
  if (Piece piece; piece.name(field)) {
    piece.integer(value);
    text_ += piece.view();
    return *this;
  }
  name(field);
  append_integer(text_, value);
  return *this;
}

HistoryLine& HistoryLine::add_signed(std::string_view field, std::int64_t value) { return add_integer(field, value); }

HistoryLine& HistoryLine::add_unsigned(std::string_view field, std::uint64_t value) { return add_integer(field, value); }

HistoryLine& HistoryLine::add(std::string_view field, bool value) {
  if (Piece piece; piece.name(field)) {
    piece.put(value ? "true" : "false");
    text_ += piece.view();
    return *this;
  }
  name(field);
  text_ += value ? "true" : "false";
  return *this;
}

HistoryLine& HistoryLine::add(std::string_view field, std::string_view value) {
  if (Piece piece; piece.name(field) && piece.string(value)) {
    text_ += piece.view();
    return *this;
  }
  name(field);
  append_string(text_, value);
  return *this;
}

HistoryLine& HistoryLine::add(std::string_view field, const Json& value) {
  // Scalars as the typed adds write them (what dump() gives); anything else through dump().
  switch (value.type()) {
    case Json::value_t::number_integer: return add_signed(field, value.get<std::int64_t>());
    case Json::value_t::number_unsigned: return add_unsigned(field, value.get<std::uint64_t>());
    case Json::value_t::boolean: return add(field, value.get<bool>());
    case Json::value_t::string: return add(field, std::string_view(value.get_ref<const std::string&>()));
    default: break;
  }
  name(field);
  text_ += value.dump();
  return *this;
}

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
    lines_.push_back(line.dump());
    return;
  }
  HistoryLine line(t_us, kind);
  for (const auto& [name, value] : fields.items()) line.add(name, value);
  record(std::move(line));
}

std::string HistoryLine::unnumbered() && {
  text_[0] = '{';  // the constructor's `,"t":`
  text_ += '}';
  return std::move(text_);
}

void History::record(HistoryLine&& line) {
  LOCKCHECK_ASSERT(line.t_us_ >= last_t_us_);  // lines are recorded in true-time order
  last_t_us_ = line.t_us_;
  char prefix[32] = "{\"i\":";
  const auto end = std::to_chars(prefix + 5, prefix + sizeof prefix, static_cast<std::int64_t>(lines_.size())).ptr;
  std::string& text = line.text_;
  text.insert(0, prefix, static_cast<std::size_t>(end - prefix));
  text += '}';
  lines_.push_back(std::move(text));
}

std::string History::jsonl() const {
  std::string text;
  for (const auto& line : lines_) {
    text += line;
    text += '\n';
  }
  return text;
}

std::uint64_t History::hash() const {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const auto& line : lines_) {
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
