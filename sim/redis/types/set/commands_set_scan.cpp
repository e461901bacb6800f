// SSCAN key cursor [MATCH pattern] [COUNT count]. Redis returns a small all-integer set (intset) whole with
// cursor 0 whatever the cursor; otherwise the mock's cursor is a position in its member order, which
// pages like Redis's hashtable cursor (every member present throughout is returned once) without its
// bucket arithmetic.
#include <cerrno>
#include <cstdlib>
#include <iterator>

#include "redis/types/set/set_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/glob.hpp"
#include "redis/util/numbers.hpp"
#include "redis/types/set/set_access.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

// Redis's parseScanCursorOrReply: strtoul over the whole string (so "-1" wraps, "" is 0), no overflow.
std::optional<std::uint64_t> parse_cursor(const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const unsigned long long cursor = std::strtoull(text.c_str(), &end, 10);
  if (errno == ERANGE || end == nullptr || *end != '\0') return std::nullopt;
  return cursor;
}

constexpr std::size_t kIntsetMaxEntries = 512;  // set-max-intset-entries

bool intset_like(const Set& set) {
  if (set.size() > kIntsetMaxEntries) return false;
  // Integers order first, so the set is all integers exactly when its last member is one.
  return set.empty() || parse_int64(*set.rbegin()).has_value();
}

}  // namespace

Reply sscan(CommandContext& ctx) {
  const Command& args = ctx.args;
  auto cursor = parse_cursor(args[2]);
  if (!cursor) return Reply::error("ERR invalid cursor");
  bool wrong_type = false;
  Set* set = find_set(ctx.keys, args[1], wrong_type);
  if (set == nullptr && !wrong_type) return Reply::array({Reply::bulk("0"), Reply::array({})});
  if (wrong_type) return err::wrong_type();
  std::int64_t count = 10;
  const std::string* pattern = nullptr;
  for (std::size_t i = 3; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) return err::syntax();
    if (iequals(args[i], "count")) {
      auto parsed = parse_int64(args[i + 1]);
      if (!parsed) return err::not_integer();
      if (*parsed < 1) return err::syntax();
      count = *parsed;
    } else if (iequals(args[i], "match")) {
      pattern = &args[i + 1];
    } else {
      return err::syntax();
    }
  }
  const bool whole = intset_like(*set);
  std::uint64_t position = whole ? 0 : *cursor;
  auto it = set->begin();
  if (position >= set->size()) it = set->end();
  else std::advance(it, static_cast<std::ptrdiff_t>(position));
  std::vector<Reply> members;
  for (std::int64_t taken = 0; it != set->end() && (whole || taken < count); ++it, ++taken, ++position) {
    if (pattern == nullptr || glob_match(*pattern, *it)) members.push_back(Reply::bulk(*it));
  }
  const std::uint64_t next = it == set->end() ? 0 : position;
  return Reply::array({Reply::bulk(std::to_string(next)), Reply::array(std::move(members))});
}

}  // namespace lockcheck::mock::cmd
