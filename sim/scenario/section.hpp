#pragma once
// Checked access to one table of a scenario file. Every read names the expected type and range and every
// failure carries path:line:column, so a user can fix a file without reading this code. Only the scenario
// parser uses it.
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

namespace lockcheck::sim::scenario_detail {

// Throws ScenarioError("path:line:column: message").
[[noreturn]] void fail(const std::string& path, const toml::source_region& where, const std::string& message);

// Bounds for times written in milliseconds: a year either way keeps every conversion to microseconds and
// every sum of a time and a duration far from overflow.
inline constexpr std::int64_t kMaxMillis = 365LL * 24 * 3600 * 1000;
inline constexpr std::int64_t kMaxMicros = kMaxMillis * 1000;
inline constexpr std::int64_t kNoLimit = std::numeric_limits<std::int64_t>::max();

class Section {
 public:
  // The top-level table.
  Section(const toml::table& table, const std::string& path);

  // Fails on any key not in `allowed`, listing them in the given order. Tables are written "[lock]" or
  // "[[faults]]" in the list so the message shows the user what to write.
  void allow_only(std::span<const std::string_view> allowed) const;
  void allow_only(std::initializer_list<std::string_view> allowed) const {
    allow_only(std::span<const std::string_view>(allowed.begin(), allowed.size()));
  }

  const toml::node* find(std::string_view key) const;
  bool has(std::string_view key) const { return find(key) != nullptr; }

  // Each returns nothing when the key is absent, and fails on a wrong type or a value out of range.
  std::optional<std::int64_t> integer(std::string_view key, std::int64_t min, std::int64_t max) const;
  std::optional<std::int64_t> millis_as_micros(std::string_view key, std::int64_t min_ms, std::int64_t max_ms) const;
  std::optional<std::string> string(std::string_view key) const;
  std::optional<bool> boolean(std::string_view key) const;
  std::optional<std::string> choice(std::string_view key, std::span<const std::string_view> options) const;
  std::optional<std::string> choice(std::string_view key, std::initializer_list<std::string_view> options) const {
    return choice(key, std::span<const std::string_view>(options.begin(), options.size()));
  }
  std::optional<Section> table(std::string_view key) const;
  std::vector<Section> array_of_tables(std::string_view key) const;
  const toml::array* array(std::string_view key) const;

  // Assign only when present, so RunConfig's defaults stay the defaults.
  template <typename T>
  void read_integer(std::string_view key, T& field, std::int64_t min, std::int64_t max) const {
    if (auto value = integer(key, min, max)) field = static_cast<T>(*value);
  }
  void read_millis(std::string_view key, std::int64_t& field_us, std::int64_t min_ms, std::int64_t max_ms) const {
    if (auto value = millis_as_micros(key, min_ms, max_ms)) field_us = *value;
  }

  // Fails unless low <= high; blames `high_key` when the file sets it, else `low_key`. `unit` divides the
  // values back into the file's unit for the message (1000 for *_ms keys stored in microseconds).
  void require_order(std::string_view low_key, std::int64_t low, std::string_view high_key, std::int64_t high,
                     std::int64_t unit) const;

  // Errors at the value of `key` (at the table when the key is absent) or at the table itself.
  [[noreturn]] void fail_at(std::string_view key, const std::string& message) const;
  [[noreturn]] void fail_here(const std::string& message) const;

  // "[lock] ttl_ms", or just "duration_ms" at the top level: how messages name a key.
  std::string name(std::string_view key) const;
  // "[lock]", "[[faults]]", or "the top level".
  std::string label() const;
  const std::string& path() const { return *path_; }
  const toml::table& toml_table() const { return *table_; }

 private:
  Section(const toml::table& table, const std::string& path, std::string dotted, bool array_element);

  const toml::table* table_;
  const std::string* path_;
  std::string dotted_;        // "" at the top, "lock", "clients.clock"
  bool array_element_ = false;
};

// "a string", "an integer", ...: for "must be X, not Y" messages.
std::string type_name(const toml::node& node);

}  // namespace lockcheck::sim::scenario_detail
