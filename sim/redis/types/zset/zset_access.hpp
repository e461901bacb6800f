#pragma once
// Shared by the sorted-set commands: typed lookup, score and lex range bounds as Redis parses them, and
// the (member, score) reply shapes.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "redis/keyspace/keyspace.hpp"
#include "lockcheck/reply.hpp"
#include "redis/types/typed_lookup.hpp"

namespace lockcheck::mock {

inline ZSet* find_zset(Keyspace& keys, std::string_view key, bool& wrong_type) {
  return find_typed<ZSet>(keys, key, wrong_type);
}

// A score range: "(1.5" is exclusive; the number is read by strtod, as zslParseRange does (so leading
// spaces, hex and "" pass), NaN is refused.
struct ScoreRange {
  double min = 0, max = 0;
  bool min_exclusive = false, max_exclusive = false;
  bool contains(double score) const;
};
std::optional<ScoreRange> parse_score_range(const std::string& min, const std::string& max);
inline constexpr std::string_view kNotFloatRange = "ERR min or max is not a float";

// A lex range: "-" and "+" are the open ends, "[a" inclusive, "(a" exclusive.
struct LexRange {
  std::string min, max;
  int min_infinite = 0, max_infinite = 0;  // -1 for "-", +1 for "+" (either end may be either), 0 for a string
  bool min_exclusive = false, max_exclusive = false;
  bool at_least_min(std::string_view member) const;
  bool at_most_max(std::string_view member) const;
  bool empty() const;  // min above max, or equal with an exclusive end ("-" and "+" count as exclusive)
};
std::optional<LexRange> parse_lex_range(const std::string& min, const std::string& max);
inline constexpr std::string_view kNotLexRange = "ERR min or max not valid string range item";

using ZItem = std::pair<double, std::string>;

// The members a lex range selects from `items` (in score order), as Redis 7.0 walks a small sorted set
// (listpack): the first member past the near bound starts the run, which ends at the first member past the
// far bound; `offset` members are skipped unchecked, then at most `limit` (-1: all) taken. For members of
// equal score this is the lex range; for mixed scores it is what Redis answers, not a filter.
std::vector<const ZItem*> lex_run(const std::vector<const ZItem*>& items, const LexRange& range, bool reverse,
                                  std::int64_t offset, std::int64_t limit);

// Members with scores: flat [m, s, m, s] on RESP2; RESP3 gives [[m, s], ...] when `pairs_on_resp3`.
Reply scored_reply(const std::vector<const ZItem*>& items, bool with_scores, int resp, bool pairs_on_resp3 = true);

// Removes the items (pointers into zset.by_score) and deletes the key when emptied; returns how many.
std::int64_t remove_items(Keyspace& keys, std::string_view key, ZSet& zset, const std::vector<const ZItem*>& items);

// Stores `result` at `key` replacing any value and its TTL, or deletes the key when `result` is empty (the
// *STORE commands); the reply is the stored cardinality.
Reply store_zset(Keyspace& keys, std::string_view key, ZSet result);

}  // namespace lockcheck::mock
