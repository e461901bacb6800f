#include "scenario/section.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "scenario/closest_name.hpp"
#include "scenario/scenario.hpp"

namespace lockcheck::sim::scenario_detail {
namespace {

// "[lock]" -> "lock": the allowed list is written as the user writes it, matched by bare key.
std::string_view bare(std::string_view display) {
  while (!display.empty() && display.front() == '[') display.remove_prefix(1);
  while (!display.empty() && display.back() == ']') display.remove_suffix(1);
  return display;
}

std::string join(std::span<const std::string_view> items, std::string_view quote) {
  std::string out;
  for (std::string_view item : items) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{}{}{}", quote, item, quote);
  }
  return out;
}

bool is_array_of_tables(const toml::node& node) {
  const toml::array* array = node.as_array();
  if (array == nullptr || array->empty()) return false;
  return std::all_of(array->begin(), array->end(), [](const toml::node& element) { return element.is_table(); });
}

}  // namespace

void fail(const std::string& path, const toml::source_region& where, const std::string& message) {
  // The root table and defaults have no position; line 1 column 1 still lets editors jump to the file.
  const auto line = where.begin.line > 0 ? where.begin.line : 1;
  const auto column = where.begin.column > 0 ? where.begin.column : 1;
  throw ScenarioError(fmt::format("{}:{}:{}: {}", path, line, column, message));
}

std::string type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a floating-point number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    case toml::node_type::none: break;
  }
  return "nothing";
}

Section::Section(const toml::table& table, const std::string& path) : Section(table, path, "", false) {}

Section::Section(const toml::table& table, const std::string& path, std::string dotted, bool array_element)
    : table_(&table), path_(&path), dotted_(std::move(dotted)), array_element_(array_element) {}

std::string Section::label() const {
  if (dotted_.empty()) return "the top level";
  return array_element_ ? "[[" + dotted_ + "]]" : "[" + dotted_ + "]";
}

std::string Section::name(std::string_view key) const {
  if (dotted_.empty()) return std::string(key);
  return fmt::format("{} {}", label(), key);
}

void Section::allow_only(std::span<const std::string_view> allowed) const {
  // toml::table is a std::map: keys come sorted, so the first unknown key reported is deterministic.
  for (auto&& [key, node] : *table_) {
    const std::string_view name = key.str();  // clang 14 cannot capture a structured binding
    const bool known = std::any_of(allowed.begin(), allowed.end(),
                                   [&](std::string_view display) { return bare(display) == name; });
    if (known) continue;
    const std::string where = dotted_.empty() ? "" : " in " + label();
    const std::string list = join(allowed, "");
    // Matched by bare key, suggested as the allowed list writes it ("[[faults]]" for a table).
    std::vector<std::string_view> names;
    for (std::string_view display : allowed) names.push_back(bare(display));
    const std::string hint = did_you_mean(name, names, allowed);
    if (node.is_table()) {
      fail(path(), node.source(), fmt::format("unknown table [{}]{}{}; allowed: {}", key.str(), where, hint, list));
    }
    if (is_array_of_tables(node)) {
      fail(path(), node.source(), fmt::format("unknown table [[{}]]{}{}; allowed: {}", key.str(), where, hint, list));
    }
    fail(path(), key.source(), fmt::format("unknown key '{}'{}{}; allowed: {}", key.str(), where, hint, list));
  }
}

const toml::node* Section::find(std::string_view key) const { return table_->get(key); }

std::optional<std::int64_t> Section::integer(std::string_view key, std::int64_t min, std::int64_t max) const {
  const toml::node* node = find(key);
  if (node == nullptr) return std::nullopt;
  const auto* value = node->as_integer();
  if (value == nullptr) fail_at(key, fmt::format("{} must be an integer, not {}", name(key), type_name(*node)));
  const std::int64_t x = value->get();
  if (x < min || x > max) {
    const std::string range = max == kNoLimit ? fmt::format(">= {}", min) : fmt::format("in [{}, {}]", min, max);
    fail_at(key, fmt::format("{} must be {}, not {}", name(key), range, x));
  }
  return x;
}

std::optional<std::int64_t> Section::millis_as_micros(std::string_view key, std::int64_t min_ms,
                                                      std::int64_t max_ms) const {
  // Callers bound max_ms by kMaxMillis, so the product cannot overflow.
  if (auto ms = integer(key, min_ms, max_ms)) return *ms * 1000;
  return std::nullopt;
}

std::optional<std::string> Section::string(std::string_view key) const {
  const toml::node* node = find(key);
  if (node == nullptr) return std::nullopt;
  const auto* value = node->as_string();
  if (value == nullptr) fail_at(key, fmt::format("{} must be a string, not {}", name(key), type_name(*node)));
  return value->get();
}

std::optional<bool> Section::boolean(std::string_view key) const {
  const toml::node* node = find(key);
  if (node == nullptr) return std::nullopt;
  const auto* value = node->as_boolean();
  if (value == nullptr) {
    fail_at(key, fmt::format("{} must be a boolean (true or false), not {}", name(key), type_name(*node)));
  }
  return value->get();
}

std::optional<std::string> Section::choice(std::string_view key, std::span<const std::string_view> options) const {
  auto text = string(key);
  if (!text) return std::nullopt;
  if (std::find(options.begin(), options.end(), *text) != options.end()) return text;
  std::string allowed;
  if (options.size() == 2) {
    allowed = fmt::format("\"{}\" or \"{}\"", options[0], options[1]);
  } else {
    allowed = "one of " + join(options, "\"");
  }
  fail_at(key, fmt::format("{} must be {}, not \"{}\"", name(key), allowed, *text));
}

std::optional<Section> Section::table(std::string_view key) const {
  const toml::node* node = find(key);
  if (node == nullptr) return std::nullopt;
  const toml::table* child = node->as_table();
  if (child == nullptr) fail_at(key, fmt::format("{} must be a table, not {}", name(key), type_name(*node)));
  const std::string dotted = dotted_.empty() ? std::string(key) : fmt::format("{}.{}", dotted_, key);
  return Section(*child, path(), dotted, false);
}

std::vector<Section> Section::array_of_tables(std::string_view key) const {
  const toml::node* node = find(key);
  if (node == nullptr) return {};
  const std::string dotted = dotted_.empty() ? std::string(key) : fmt::format("{}.{}", dotted_, key);
  if (!is_array_of_tables(*node)) {
    fail_at(key, fmt::format("{} must be written as [[{}]] tables, not {}", name(key), dotted, type_name(*node)));
  }
  std::vector<Section> out;
  for (const toml::node& element : *node->as_array()) out.push_back(Section(*element.as_table(), path(), dotted, true));
  return out;
}

const toml::array* Section::array(std::string_view key) const {
  const toml::node* node = find(key);
  if (node == nullptr) return nullptr;
  const toml::array* value = node->as_array();
  if (value == nullptr) fail_at(key, fmt::format("{} must be an array, not {}", name(key), type_name(*node)));
  return value;
}

void Section::require_order(std::string_view low_key, std::int64_t low, std::string_view high_key,
                            std::int64_t high, std::int64_t unit) const {
  if (low <= high) return;
  const std::string_view blamed = has(high_key) ? high_key : low_key;
  fail_at(blamed, fmt::format("{} ({}) must not be less than {} ({})", name(high_key), high / unit, low_key, low / unit));
}

void Section::fail_at(std::string_view key, const std::string& message) const {
  const toml::node* node = find(key);
  fail(path(), node != nullptr ? node->source() : table_->source(), message);
}

void Section::fail_here(const std::string& message) const { fail(path(), table_->source(), message); }

}  // namespace lockcheck::sim::scenario_detail
