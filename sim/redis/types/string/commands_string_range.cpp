// Parts of strings: GETRANGE (and its old name SUBSTR), SETRANGE, LCS — Redis 7.0.15's order of checks and texts.
#include <algorithm>
#include <optional>
#include <vector>

#include "redis/types/string/string_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/numbers.hpp"
#include "redis/types/string/string_limits.hpp"
#include "redis/util/text.hpp"
#include "redis/types/typed_lookup.hpp"

namespace lockcheck::mock::cmd {
namespace {

// One common run of LCS: the positions it covers in each string, both inclusive.
struct LcsMatch {
  std::int64_t a_start, a_end, b_start, b_end;
  std::int64_t length() const { return a_end - a_start + 1; }
};

struct LcsResult {
  std::string common;            // the longest common subsequence
  std::vector<LcsMatch> matches; // from the end of the strings to their start, as Redis lists them
};

// The classic dynamic-programming table, walked back from the end the way Redis walks it (on a tie it steps
// in b), so the subsequence and the match ranges are the ones redis-server picks.
LcsResult longest_common_subsequence(const std::string& a, const std::string& b) {
  const std::size_t columns = b.size() + 1;
  std::vector<std::uint32_t> table((a.size() + 1) * columns, 0);
  auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return table[i * columns + j]; };
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      at(i, j) = a[i - 1] == b[j - 1] ? at(i - 1, j - 1) + 1 : std::max(at(i - 1, j), at(i, j - 1));
    }
  }
  LcsResult result;
  result.common.assign(at(a.size(), b.size()), '\0');
  std::size_t filled = result.common.size();
  std::optional<LcsMatch> open;
  std::size_t i = a.size(), j = b.size();
  while (i > 0 && j > 0) {  // each step lowers i or j, so at most |a| + |b| steps
    if (a[i - 1] == b[j - 1]) {
      result.common[--filled] = a[i - 1];
      const auto ai = static_cast<std::int64_t>(i - 1), bj = static_cast<std::int64_t>(j - 1);
      if (open && open->a_start == ai + 1 && open->b_start == bj + 1) {
        open->a_start = ai;
        open->b_start = bj;
      } else {
        if (open) result.matches.push_back(*open);
        open = LcsMatch{ai, ai, bj, bj};
      }
      --i;
      --j;
      if (i == 0 || j == 0) result.matches.push_back(*open), open.reset();
    } else {
      if (at(i - 1, j) > at(i, j - 1)) --i;
      else --j;
      if (open) result.matches.push_back(*open), open.reset();
    }
  }
  return result;
}

Reply lcs_range(std::int64_t start, std::int64_t end) {
  return Reply::array({Reply::integer_reply(start), Reply::integer_reply(end)});
}

}  // namespace

Reply getrange(CommandContext& ctx) {
  auto start = parse_int64(ctx.args[2]);
  auto end = parse_int64(ctx.args[3]);
  if (!start || !end) return err::not_integer();
  bool wrong_type = false;
  const std::string* text = find_typed<std::string>(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  if (text == nullptr || (*start < 0 && *end < 0 && *start > *end)) return Reply::bulk("");
  const IndexWindow window = clamp_window(*start, *end, static_cast<std::int64_t>(text->size()));
  if (window.empty()) return Reply::bulk("");
  return Reply::bulk(text->substr(static_cast<std::size_t>(window.start),
                                  static_cast<std::size_t>(window.end - window.start + 1)));
}

// SETRANGE key offset value: the offset is checked before the key; an empty value changes nothing (and does
// not create the key); the result may not exceed proto-max-bulk-len.
Reply setrange(CommandContext& ctx) {
  auto offset = parse_int64(ctx.args[2]);
  if (!offset) return err::not_integer();
  if (*offset < 0) return Reply::error("ERR offset is out of range");
  const std::string& value = ctx.args[3];
  bool wrong_type = false;
  std::string* text = find_typed<std::string>(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  if (value.empty()) return Reply::integer_reply(text == nullptr ? 0 : static_cast<std::int64_t>(text->size()));
  if (exceeds_max_string(*offset, static_cast<std::int64_t>(value.size()))) return string_too_long();
  const auto at = static_cast<std::size_t>(*offset);
  if (text == nullptr) {
    std::string created(at + value.size(), '\0');
    created.replace(at, value.size(), value);
    // Redis builds the value as a growable string: `raw` whatever its length, also when it unshares an existing one.
    ctx.keys.add_with_encoding(ctx.args[1], Value{std::move(created)}, Encoding::raw);
    return Reply::integer_reply(static_cast<std::int64_t>(at + value.size()));
  }
  ctx.keys.find(ctx.args[1])->encoding = Encoding::raw;
  if (text->size() < at + value.size()) text->resize(at + value.size(), '\0');
  text->replace(at, value.size(), value);
  ctx.keys.modified(ctx.args[1]);
  return Reply::integer_reply(static_cast<std::int64_t>(text->size()));
}

// LCS key1 key2 [LEN] [IDX] [MINMATCHLEN n] [WITHMATCHLEN]: missing keys are empty strings; options are parsed
// after the keys' types are checked, as lcsCommand does.
Reply lcs(CommandContext& ctx) {
  const Command& args = ctx.args;
  bool wrong_a = false, wrong_b = false;
  const std::string* a = find_typed<std::string>(ctx.keys, args[1], wrong_a);
  const std::string* b = find_typed<std::string>(ctx.keys, args[2], wrong_b);
  if (wrong_a || wrong_b) return Reply::error("ERR The specified keys must contain string values");
  bool want_len = false, want_idx = false, with_match_len = false;
  std::int64_t min_match_len = 0;
  for (std::size_t j = 3; j < args.size(); ++j) {
    if (iequals(args[j], "idx")) want_idx = true;
    else if (iequals(args[j], "len")) want_len = true;
    else if (iequals(args[j], "withmatchlen")) with_match_len = true;
    else if (iequals(args[j], "minmatchlen") && j + 1 < args.size()) {
      auto parsed = parse_int64(args[++j]);
      if (!parsed) return err::not_integer();
      min_match_len = std::max<std::int64_t>(*parsed, 0);
    } else {
      return err::syntax();
    }
  }
  if (want_len && want_idx) return Reply::error("ERR If you want both the length and indexes, please just use IDX.");
  const std::string empty;
  const std::string& left = a == nullptr ? empty : *a;
  const std::string& right = b == nullptr ? empty : *b;
  // The table Redis would allocate: refused beyond proto-max-bulk-len bytes, as there.
  const auto table_bytes = static_cast<double>(left.size() + 1) * static_cast<double>(right.size() + 1) * 4;
  if (table_bytes > static_cast<double>(kProtoMaxBulkLen)) {
    return Reply::error("ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len");
  }
  LcsResult result = longest_common_subsequence(left, right);
  const auto length = static_cast<std::int64_t>(result.common.size());
  if (want_len) return Reply::integer_reply(length);
  if (!want_idx) return Reply::bulk(std::move(result.common));
  std::vector<Reply> matches;
  for (const LcsMatch& match : result.matches) {
    if (min_match_len != 0 && match.length() < min_match_len) continue;
    std::vector<Reply> entry{lcs_range(match.a_start, match.a_end), lcs_range(match.b_start, match.b_end)};
    if (with_match_len) entry.push_back(Reply::integer_reply(match.length()));
    matches.push_back(Reply::array(std::move(entry)));
  }
  return Reply::map({Reply::bulk("matches"), Reply::array(std::move(matches)), Reply::bulk("len"),
                     Reply::integer_reply(length)});
}

}  // namespace lockcheck::mock::cmd
