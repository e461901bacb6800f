#pragma once
// The run's history, one JSON object per line in the schema of sim/README.md. Lines are recorded as their
// fields (names and typed values, in the order they are added) and rendered as text when text is asked for
// (lines(), jsonl(), hash()): fields in that fixed order, integers only, so equal runs give byte-identical text.
// The checkers read the recorded fields without any text in between (properties::parse_history of a
// History): writing a run's text and scanning it back cost explore a fifth of its runs.
#include <concepts>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/history_fields.hpp"

namespace lockcheck::sim {

using Json = nlohmann::ordered_json;

// One recorded field, as HistoryLine was given it. Views point into the History (or line) that holds it.
struct HistoryField {
  enum class Type : std::uint8_t {
    signed_integer,
    unsigned_integer,
    boolean,
    string,  // `text` is the value itself, which needs at most '"' and '\' escaped in JSON
    json,    // `text` is the value's JSON text (arrays, objects, floats, strings nlohmann escapes)
  };
  Type type = Type::signed_integer;
  std::uint8_t id = kNoFieldId;  // its name's number in kFieldNames; kNoFieldId for a name the list lacks
  std::string_view name;
  std::int64_t signed_value = 0;
  std::uint64_t unsigned_value = 0;
  bool boolean = false;
  std::string_view text;
};

// Reads the fields of one recorded line in order (the encoding HistoryLine writes: a field's type, its name's
// number, its name only when the list lacks it, then its value).
class HistoryFieldReader {
 public:
  explicit HistoryFieldReader(std::string_view bytes) : bytes_(bytes) {}
  // The next field into `out`; false after the last.
  bool next(HistoryField& out) {
    if (at_ >= bytes_.size()) return false;
    out.type = static_cast<HistoryField::Type>(bytes_[at_]);
    out.id = static_cast<std::uint8_t>(bytes_[at_ + 1]);
    at_ += 2;
    if (out.id != kNoFieldId) {
      out.name = kFieldNames[out.id];
    } else {
      std::uint16_t name_size = 0;
      std::memcpy(&name_size, bytes_.data() + at_, 2);
      out.name = bytes_.substr(at_ + 2, name_size);
      at_ += 2 + name_size;
    }
    switch (out.type) {
      case HistoryField::Type::signed_integer: std::memcpy(&out.signed_value, bytes_.data() + at_, 8); at_ += 8; break;
      case HistoryField::Type::unsigned_integer: std::memcpy(&out.unsigned_value, bytes_.data() + at_, 8); at_ += 8; break;
      case HistoryField::Type::boolean: out.boolean = bytes_[at_] != 0; at_ += 1; break;
      case HistoryField::Type::string:
      case HistoryField::Type::json: {
        std::uint32_t size = 0;
        std::memcpy(&size, bytes_.data() + at_, 4);
        out.text = bytes_.substr(at_ + 4, size);
        at_ += 4 + size;
        break;
      }
    }
    return true;
  }

 private:
  std::string_view bytes_;
  std::size_t at_ = 0;
};

// One line's fields in the order they are added: the hot callers' path (a client's ops, a node's key events,
// the resource). Rendered, the text is exactly what dumping the ordered_json object with the same fields in
// the same order gives (nlohmann's escaping; anything beyond printable ASCII is escaped by nlohmann itself),
// so History::record(t, kind, Json) and this agree byte for byte. Each name must appear once, as in a Json
// object built by insertion. A literal name is numbered when it compiles (history_fields.hpp); add_named takes
// a name known only at run time.
class HistoryLine {
 public:
  HistoryLine(std::int64_t t_us, std::string_view kind);

  template <std::integral Integer>
    requires(!std::same_as<Integer, bool>)
  HistoryLine& add(FieldName name, Integer value) {
    return add_integer(Named{name.id, {}}, value);
  }
  HistoryLine& add(FieldName name, bool value) { return add_boolean(Named{name.id, {}}, value); }
  HistoryLine& add(FieldName name, std::string_view value) { return add_string(Named{name.id, {}}, value); }
  HistoryLine& add(FieldName name, const char* value) { return add_string(Named{name.id, {}}, value); }
  HistoryLine& add(FieldName name, const std::string& value) { return add_string(Named{name.id, {}}, value); }
  // Any other value (arrays, objects): rendered by nlohmann.
  HistoryLine& add(FieldName name, const Json& value) { return add_json(Named{name.id, {}}, value); }
  // A field whose name is known only at run time (a Json object's).
  HistoryLine& add_named(std::string_view name, const Json& value) { return add_json(named(name), value); }
  template <std::integral Integer>
    requires(!std::same_as<Integer, bool>)
  HistoryLine& add_named(std::string_view name, Integer value) {
    return add_integer(named(name), value);
  }

  // The line without History's "i": `{"t":T,"kind":"K",...}`, as the redis backend's workers write their
  // lines (the run numbers the merged history).
  std::string unnumbered() &&;

 private:
  friend class History;
  // A field's name: its number, or (kNoFieldId) its text.
  struct Named {
    std::uint8_t id;
    std::string_view text;
  };
  static Named named(std::string_view name) {
    const std::uint8_t id = field_id(name);
    return Named{id, id == kNoFieldId ? name : std::string_view()};
  }
  template <typename Integer>
  HistoryLine& add_integer(Named name, Integer value) {
    if constexpr (std::is_signed_v<Integer>) {
      return add_signed(name, static_cast<std::int64_t>(value));
    } else {
      return add_unsigned(name, static_cast<std::uint64_t>(value));
    }
  }
  HistoryLine& add_signed(Named name, std::int64_t value);
  HistoryLine& add_unsigned(Named name, std::uint64_t value);
  HistoryLine& add_boolean(Named name, bool value);
  HistoryLine& add_string(Named name, std::string_view value);
  HistoryLine& add_json(Named name, const Json& value);
  // Appends a field's type and name and makes room for `value_size` bytes of its value, which it returns.
  char* begin_field(HistoryField::Type type, Named name, std::size_t value_size);
  HistoryLine& add_text(HistoryField::Type type, Named name, std::string_view text);

  std::int64_t t_us_;
  std::string kind_;
  std::string fields_;  // HistoryFieldReader's encoding
};

class History {
 public:
  // Appends one line: `fields` are written after "i", "t" and "kind", in their order.
  void record(std::int64_t t_us, const char* kind, const Json& fields);
  // The same, from fields already typed.
  void record(HistoryLine&& line);

  // One recorded line: its "t" and "kind" and its fields (HistoryFieldReader), or, for a line recorded from a
  // Json object that names "i", "t" or "kind" itself, only its text.
  struct LineView {
    std::int64_t t_us = 0;
    std::string_view kind;
    std::string_view fields;
    std::string_view text;  // non-empty only for such a line
  };
  std::size_t size() const { return lines_.size(); }
  // Its views hold until the next line is recorded.
  LineView line(std::size_t index) const {
    const Line& at = lines_[index];
    const std::string_view bytes(bytes_);
    return LineView{at.t_us, bytes.substr(at.kind_at, at.kind_size), bytes.substr(at.kind_at + at.kind_size, at.fields_size),
                    at.text < 0 ? std::string_view() : std::string_view(texts_[static_cast<std::size_t>(at.text)])};
  }
  // Line `index` as text, without a newline.
  std::string line_text(std::size_t index) const;

  // Every line as text (rendered once, on the first call after a line was recorded).
  const std::vector<std::string>& lines() const;
  std::string jsonl() const;
  // FNV-1a 64 over the JSONL text: what determinism tests compare.
  std::uint64_t hash() const;

 private:
  // A line's kind and fields are bytes of bytes_ (one buffer for the run: a line costs no allocation of its
  // own, and the lines grow as plain records).
  struct Line {
    std::int64_t t_us = 0;
    std::size_t kind_at = 0;  // its fields follow the kind
    std::uint32_t kind_size = 0;
    std::uint32_t fields_size = 0;
    std::int32_t text = -1;  // a line recorded as text only: its index in texts_
  };
  Line append(std::int64_t t_us, std::string_view kind, std::string_view fields);
  // The rendered text, kept once asked for, under a mutex: a const History may be read from two threads.
  // Copied and moved with the lines (a mutex is neither).
  struct Text {
    Text() = default;
    Text(const Text& other) : lines(other.copy()) {}
    Text(Text&& other) noexcept : lines(other.take()) {}
    Text& operator=(const Text& other) {
      if (this != &other) set(other.copy());
      return *this;
    }
    Text& operator=(Text&& other) noexcept {
      if (this != &other) set(other.take());
      return *this;
    }
    ~Text() = default;
    std::vector<std::string> copy() const {
      const std::lock_guard lock(mutex);
      return lines;
    }
    std::vector<std::string> take() noexcept {
      const std::lock_guard lock(mutex);
      return std::move(lines);
    }
    void set(std::vector<std::string> from) {
      const std::lock_guard lock(mutex);
      lines = std::move(from);
    }
    mutable std::mutex mutex;
    mutable std::vector<std::string> lines;
  };

  std::int64_t last_t_us_ = 0;
  std::vector<Line> lines_;
  std::string bytes_;
  std::vector<std::string> texts_;
  Text text_;
};

}  // namespace lockcheck::sim
