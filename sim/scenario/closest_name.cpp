#include "scenario/closest_name.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <vector>

namespace lockcheck::sim::scenario_detail {
namespace {

char folded(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// Edit distance over case-folded characters, a swap of two neighbours counting as one edit (optimal string
// alignment): "rnu" is one slip from "run". Names are short: the whole table is fine.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = folded(a[i - 1]) == folded(b[j - 1]);
      d[i][j] = std::min({d[i - 1][j - 1] + (same ? 0 : 1), d[i - 1][j] + 1, d[i][j - 1] + 1});
      if (i > 1 && j > 1 && folded(a[i - 1]) == folded(b[j - 2]) && folded(a[i - 2]) == folded(b[j - 1])) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

// The index in `known` of the closest name close enough to be a slip.
std::optional<std::size_t> closest_index(std::string_view wrong, std::span<const std::string_view> known) {
  std::optional<std::size_t> best;
  std::size_t best_distance = 0;
  for (std::size_t i = 0; i < known.size(); ++i) {
    const std::size_t distance = edit_distance(wrong, known[i]);
    const std::size_t allowed = std::max<std::size_t>(1, std::max(wrong.size(), known[i].size()) / 3);
    if (distance > allowed || (best && distance >= best_distance)) continue;
    best = i;
    best_distance = distance;
  }
  return best;
}

}  // namespace

std::string did_you_mean(std::string_view wrong, std::span<const std::string_view> known,
                         std::span<const std::string_view> shown) {
  const std::optional<std::size_t> at = closest_index(wrong, known);
  if (!at) return {};
  return fmt::format(" (did you mean '{}'?)", shown.empty() ? known[*at] : shown[*at]);
}

}  // namespace lockcheck::sim::scenario_detail
