#pragma once
// The run's history, one JSON object per line in the schema of sim/README.md. Lines are rendered as they
// are recorded (fields in a fixed order, integers only), so equal runs give byte-identical text.
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace lockcheck::sim {

using Json = nlohmann::ordered_json;

// One line's fields, written straight as text in the order they are added: the hot callers' path (a client's
// ops, a node's key events, the resource), which builds no Json tree. The text is exactly what dumping the
// ordered_json object with the same fields in the same order gives (nlohmann's escaping; anything beyond
// printable ASCII is escaped by nlohmann itself), so History::record(t, kind, Json) and this agree byte for
// byte. Each name must appear once, as in a Json object built by insertion.
class HistoryLine {
 public:
  HistoryLine(std::int64_t t_us, std::string_view kind);

  template <std::integral Integer>
    requires(!std::same_as<Integer, bool>)
  HistoryLine& add(std::string_view name, Integer value) {
    if constexpr (std::is_signed_v<Integer>) {
      return add_signed(name, static_cast<std::int64_t>(value));
    } else {
      return add_unsigned(name, static_cast<std::uint64_t>(value));
    }
  }
  HistoryLine& add(std::string_view name, bool value);
  HistoryLine& add(std::string_view name, std::string_view value);
  HistoryLine& add(std::string_view name, const char* value) { return add(name, std::string_view(value)); }
  HistoryLine& add(std::string_view name, const std::string& value) { return add(name, std::string_view(value)); }
  // Any other value (arrays, objects): rendered by nlohmann.
  HistoryLine& add(std::string_view name, const Json& value);

  // The line without History's "i": `{"t":T,"kind":"K",...}`, as the redis backend's workers write their
  // lines (the run numbers the merged history).
  std::string unnumbered() &&;

 private:
  friend class History;
  HistoryLine& add_signed(std::string_view name, std::int64_t value);
  HistoryLine& add_unsigned(std::string_view name, std::uint64_t value);
  template <typename Integer>
  HistoryLine& add_integer(std::string_view name, Integer value);
  void name(std::string_view name);

  std::int64_t t_us_;
  // `,"t":T,"kind":"K"` and the fields; History::record puts `{"i":N` in front and `}` behind.
  std::string text_;
};

class History {
 public:
  // Appends one line: `fields` are written after "i", "t" and "kind", in their order.
  void record(std::int64_t t_us, const char* kind, const Json& fields);
  // The same, from fields already written as text.
  void record(HistoryLine&& line);

  const std::vector<std::string>& lines() const { return lines_; }
  std::string jsonl() const;
  // FNV-1a 64 over the JSONL text: what determinism tests compare.
  std::uint64_t hash() const;

 private:
  std::int64_t last_t_us_ = 0;
  std::vector<std::string> lines_;
};

}  // namespace lockcheck::sim
