#include "scenario/closest_name.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <numeric>
#include <vector>

namespace lockcheck::sim::scenario_detail {
namespace {

char folded(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// Levenshtein distance over case-folded characters; one row of the table at a time.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitute = diagonal + (folded(a[i - 1]) == folded(b[j - 1]) ? 0 : 1);
      diagonal = row[j];
      row[j] = std::min({substitute, row[j] + 1, row[j - 1] + 1});
    }
  }
  return row[b.size()];
}

}  // namespace

std::optional<std::string> closest_name(std::string_view wrong, std::span<const std::string_view> known) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (std::string_view name : known) {
    const std::size_t distance = edit_distance(wrong, name);
    const std::size_t allowed = std::max<std::size_t>(1, std::max(wrong.size(), name.size()) / 3);
    if (distance > allowed || (best && distance >= best_distance)) continue;
    best = std::string(name);
    best_distance = distance;
  }
  return best;
}

std::string did_you_mean(std::string_view wrong, std::span<const std::string_view> known) {
  const std::optional<std::string> name = closest_name(wrong, known);
  return name ? fmt::format(" (did you mean '{}'?)", *name) : std::string();
}

}  // namespace lockcheck::sim::scenario_detail
