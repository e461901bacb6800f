// SINTER, SUNION, SDIFF (+STORE) and SINTERCARD. Every named key is type-checked before any result is
// computed, a missing key counting as the empty set, as Redis 7.0 does.
#include <limits>
#include <optional>

#include "redis/types/set/set_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/numbers.hpp"
#include "redis/types/set/set_access.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

enum class SetOperation { intersection, set_union, difference };

// The sets at args[first, last): each entry nullptr for a missing key; nullopt after a WRONGTYPE.
std::optional<std::vector<const Set*>> load_sets(CommandContext& ctx, std::size_t first, std::size_t last) {
  std::vector<const Set*> sets;
  for (std::size_t i = first; i < last; ++i) {
    bool wrong_type = false;
    const Set* set = find_set(ctx.keys, ctx.args[i], wrong_type);
    if (wrong_type) return std::nullopt;
    sets.push_back(set);
  }
  return sets;
}

// `limit` bounds an intersection's size (SINTERCARD's LIMIT; 0 = none).
Set combine(const std::vector<const Set*>& sets, SetOperation operation, std::size_t limit = 0) {
  Set result;
  if (sets.empty()) return result;
  switch (operation) {
    case SetOperation::intersection: {
      for (const Set* set : sets) {
        if (set == nullptr) return result;
      }
      for (const std::string& member : *sets.front()) {
        bool everywhere = true;
        for (std::size_t i = 1; i < sets.size() && everywhere; ++i) everywhere = sets[i]->contains(member);
        if (everywhere) result.insert(member);
        if (limit != 0 && result.size() >= limit) break;
      }
      return result;
    }
    case SetOperation::set_union:
      for (const Set* set : sets) {
        if (set != nullptr) result.insert(set->begin(), set->end());
      }
      return result;
    case SetOperation::difference:
      if (sets.front() == nullptr) return result;
      result = *sets.front();
      for (std::size_t i = 1; i < sets.size() && !result.empty(); ++i) {
        if (sets[i] == nullptr) continue;
        for (const std::string& member : *sets[i]) result.erase(member);
      }
      return result;
  }
  return result;
}

Reply reply_with(CommandContext& ctx, SetOperation operation) {
  auto sets = load_sets(ctx, 1, ctx.args.size());
  if (!sets) return err::wrong_type();
  return set_reply(combine(*sets, operation));
}

Reply store_with(CommandContext& ctx, SetOperation operation) {
  auto sets = load_sets(ctx, 2, ctx.args.size());
  if (!sets) return err::wrong_type();
  return store_set(ctx.keys, ctx.args[1], combine(*sets, operation));
}

}  // namespace

Reply sinter(CommandContext& ctx) { return reply_with(ctx, SetOperation::intersection); }
Reply sunion(CommandContext& ctx) { return reply_with(ctx, SetOperation::set_union); }
Reply sdiff(CommandContext& ctx) { return reply_with(ctx, SetOperation::difference); }
Reply sinterstore(CommandContext& ctx) { return store_with(ctx, SetOperation::intersection); }
Reply sunionstore(CommandContext& ctx) { return store_with(ctx, SetOperation::set_union); }
Reply sdiffstore(CommandContext& ctx) { return store_with(ctx, SetOperation::difference); }

// SINTERCARD numkeys key [key ...] [LIMIT limit]
Reply sintercard(CommandContext& ctx) {
  const Command& args = ctx.args;
  auto numkeys = parse_int64(args[1]);
  if (!numkeys || *numkeys <= 0) return Reply::error("ERR numkeys should be greater than 0");
  if (*numkeys > static_cast<std::int64_t>(args.size()) - 2) {
    return Reply::error("ERR Number of keys can't be greater than number of args");
  }
  const std::size_t keys_end = 2 + static_cast<std::size_t>(*numkeys);
  std::int64_t limit = 0;
  for (std::size_t i = keys_end; i < args.size(); i += 2) {
    if (!iequals(args[i], "limit") || i + 1 >= args.size()) return err::syntax();
    auto parsed = parse_int64(args[i + 1]);
    if (!parsed || *parsed < 0) return Reply::error("ERR LIMIT can't be negative");
    limit = *parsed;
  }
  auto sets = load_sets(ctx, 2, keys_end);
  if (!sets) return err::wrong_type();
  const Set result = combine(*sets, SetOperation::intersection, static_cast<std::size_t>(limit));
  return Reply::integer_reply(static_cast<std::int64_t>(result.size()));
}

}  // namespace lockcheck::mock::cmd
