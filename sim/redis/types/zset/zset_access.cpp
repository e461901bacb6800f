#include "redis/types/zset/zset_access.hpp"

#include <cmath>
#include <cstdlib>

#include "redis/util/numbers.hpp"
#include "redis/keyspace/value.hpp"

namespace lockcheck::mock {
namespace {

std::optional<std::pair<double, bool>> parse_score_item(const std::string& text) {
  const bool exclusive = !text.empty() && text[0] == '(';
  const char* start = text.c_str() + (exclusive ? 1 : 0);
  char* end = nullptr;
  const double value = std::strtod(start, &end);
  if (*end != '\0' || std::isnan(value)) return std::nullopt;
  return std::pair{value, exclusive};
}

bool parse_lex_item(const std::string& text, std::string& bound, int& infinite, bool& exclusive) {
  if (text == "-" || text == "+") {
    infinite = text == "-" ? -1 : 1;
    return true;
  }
  if (text.empty() || (text[0] != '(' && text[0] != '[')) return false;
  exclusive = text[0] == '(';
  bound = text.substr(1);
  return true;
}

}  // namespace

bool ScoreRange::contains(double score) const {
  const bool above = min_exclusive ? score > min : score >= min;
  const bool below = max_exclusive ? score < max : score <= max;
  return above && below;
}

std::optional<ScoreRange> parse_score_range(const std::string& min, const std::string& max) {
  auto low = parse_score_item(min);
  auto high = parse_score_item(max);
  if (!low || !high) return std::nullopt;
  return ScoreRange{low->first, high->first, low->second, high->second};
}

bool LexRange::at_least_min(std::string_view member) const {
  if (min_infinite != 0) return min_infinite < 0;
  const int order = member.compare(min);
  return order > 0 || (order == 0 && !min_exclusive);
}

bool LexRange::at_most_max(std::string_view member) const {
  if (max_infinite != 0) return max_infinite > 0;
  const int order = member.compare(max);
  return order < 0 || (order == 0 && !max_exclusive);
}

bool LexRange::empty() const {
  if (min_infinite == 1 || max_infinite == -1) return true;
  if (min_infinite != 0 || max_infinite != 0) return false;
  const int order = min.compare(max);
  return order > 0 || (order == 0 && (min_exclusive || max_exclusive));
}

std::vector<const ZItem*> lex_run(const std::vector<const ZItem*>& items, const LexRange& range, bool reverse,
                                  std::int64_t offset, std::int64_t limit) {
  std::vector<const ZItem*> chosen;
  // zzlIsInLexRange: judged on the first and last members only, as if sorted.
  if (items.empty() || range.empty() || !range.at_least_min(items.back()->second) ||
      !range.at_most_max(items.front()->second) || offset < 0) {
    return chosen;
  }
  const auto near = [&](const ZItem* item) { return reverse ? range.at_most_max(item->second) : range.at_least_min(item->second); };
  const auto far = [&](const ZItem* item) { return reverse ? range.at_least_min(item->second) : range.at_most_max(item->second); };
  const auto size = static_cast<std::int64_t>(items.size());
  const auto at = [&](std::int64_t step) { return items[static_cast<std::size_t>(reverse ? size - 1 - step : step)]; };
  std::int64_t step = 0;
  while (step < size && !near(at(step))) ++step;
  if (step == size || !far(at(step))) return chosen;
  step += offset;
  for (; step < size && limit != 0 && far(at(step)); ++step, --limit) chosen.push_back(at(step));
  return chosen;
}

std::optional<LexRange> parse_lex_range(const std::string& min, const std::string& max) {
  LexRange range;
  if (!parse_lex_item(min, range.min, range.min_infinite, range.min_exclusive)) return std::nullopt;
  if (!parse_lex_item(max, range.max, range.max_infinite, range.max_exclusive)) return std::nullopt;
  return range;
}

Reply scored_reply(const std::vector<const ZItem*>& items, bool with_scores, int resp, bool pairs_on_resp3) {
  std::vector<Reply> out;
  for (const ZItem* item : items) {
    if (with_scores && resp == 3 && pairs_on_resp3) {
      out.push_back(Reply::array({Reply::bulk(item->second), Reply::double_reply(format_double(item->first))}));
      continue;
    }
    out.push_back(Reply::bulk(item->second));
    if (with_scores) out.push_back(Reply::double_reply(format_double(item->first)));
  }
  return Reply::array(std::move(out));
}

std::int64_t remove_items(Keyspace& keys, std::string_view key, ZSet& zset, const std::vector<const ZItem*>& items) {
  std::vector<std::string> members;
  for (const ZItem* item : items) members.push_back(item->second);  // copies: erasing frees the items
  for (const std::string& member : members) zset_erase(zset, member);
  if (zset.score_of.empty()) keys.remove(key);
  else if (!members.empty()) keys.modified(key);
  return static_cast<std::int64_t>(members.size());
}

Reply store_zset(Keyspace& keys, std::string_view key, ZSet result) {
  const auto size = static_cast<std::int64_t>(result.score_of.size());
  if (size == 0) keys.remove(key);
  else keys.put(key, Value{std::move(result)}, /*keep_ttl=*/false);
  return Reply::integer_reply(size);
}

}  // namespace lockcheck::mock
