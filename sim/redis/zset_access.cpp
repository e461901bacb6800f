#include "zset_access.hpp"

#include <cmath>
#include <cstdlib>

#include "numbers.hpp"
#include "value.hpp"

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

bool LexRange::contains(std::string_view member) const {
  if (min_infinite == 1 || max_infinite == -1) return false;  // nothing is above "+" or below "-"
  if (min_infinite == 0) {
    const int order = member.compare(min);
    if (order < 0 || (order == 0 && min_exclusive)) return false;
  }
  if (max_infinite == 0) {
    const int order = member.compare(max);
    if (order > 0 || (order == 0 && max_exclusive)) return false;
  }
  return true;
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

}  // namespace lockcheck::mock
