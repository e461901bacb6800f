// SPOP and SRANDMEMBER. Members are drawn from the node's seeded source (Keyspace::next_random), so a
// simulated run replays them exactly; which members real Redis picks is random there too.
#include <limits>

#include "redis/types/set/set_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/numbers.hpp"
#include "redis/types/pop_count.hpp"
#include "redis/types/set/set_access.hpp"

namespace lockcheck::mock::cmd {
namespace {

// SPOP_MOVE_STRATEGY_MUL: SPOP with a count keeps a new set of the rest when count >= 5 x what remains.
constexpr std::size_t kSpopRebuildFactor = 5;

// `count` distinct members (count < set size) in draw order: a partial Fisher-Yates shuffle.
std::vector<std::string> draw_distinct(Keyspace& keys, const Set& set, std::size_t count) {
  std::vector<const std::string*> pool;
  pool.reserve(set.size());
  for (const std::string& member : set) pool.push_back(&member);
  std::vector<std::string> drawn;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t pick = i + static_cast<std::size_t>(keys.next_random() % (pool.size() - i));
    std::swap(pool[i], pool[pick]);
    drawn.push_back(*pool[i]);
  }
  return drawn;
}

const std::string& draw_one(Keyspace& keys, const Set& set) {
  auto it = set.begin();
  std::advance(it, static_cast<std::ptrdiff_t>(keys.next_random() % set.size()));
  return *it;
}

Reply bulk_array(std::vector<std::string> members, bool as_set) {
  std::vector<Reply> out;
  out.reserve(members.size());
  for (std::string& member : members) out.push_back(Reply::bulk(std::move(member)));
  return as_set ? Reply::set(std::move(out)) : Reply::array(std::move(out));
}

Reply spop_count(CommandContext& ctx, std::int64_t count) {
  bool wrong_type = false;
  Set* set = find_set(ctx.keys, ctx.args[1], wrong_type);
  if (set == nullptr && !wrong_type) return Reply::set({});
  if (wrong_type) return err::wrong_type();
  if (count == 0) return Reply::set({});
  if (static_cast<std::uint64_t>(count) >= set->size()) {
    Reply all = set_reply(*set);
    ctx.keys.remove(ctx.args[1]);
    return all;
  }
  const std::size_t remaining = set->size() - static_cast<std::size_t>(count);
  std::vector<std::string> drawn = draw_distinct(ctx.keys, *set, static_cast<std::size_t>(count));
  for (const std::string& member : drawn) set->erase(member);
  // Taking most of a set, Redis builds the rest as a new set: it gets the encoding a new set would.
  if (remaining * kSpopRebuildFactor <= static_cast<std::size_t>(count)) {
    if (Entry* entry = ctx.keys.peek(ctx.args[1])) entry->encoding = Encoding::unsettled;
  }
  ctx.keys.modified(ctx.args[1]);
  return bulk_array(std::move(drawn), /*as_set=*/true);
}

}  // namespace

Reply spop(CommandContext& ctx) {
  Reply error;
  const auto pop_count = parse_pop_count(ctx.args, error);
  if (!pop_count) return error;
  if (pop_count->given) return spop_count(ctx, pop_count->count);
  bool wrong_type = false;
  Set* set = find_set(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  if (set == nullptr) return Reply::nil();
  std::string member = draw_one(ctx.keys, *set);
  set->erase(member);
  settle_set(ctx.keys, ctx.args[1], *set, true);
  return Reply::bulk(std::move(member));
}

Reply srandmember(CommandContext& ctx) {
  if (ctx.args.size() > 3) return err::syntax();
  if (ctx.args.size() == 2) {
    bool wrong_type = false;
    Set* set = find_set(ctx.keys, ctx.args[1], wrong_type);
    if (wrong_type) return err::wrong_type();
    return set == nullptr ? Reply::nil() : Reply::bulk(draw_one(ctx.keys, *set));
  }
  auto count = parse_int64(ctx.args[2]);
  if (!count) return err::not_integer();
  if (*count == std::numeric_limits<std::int64_t>::min()) {
    return Reply::error("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807");
  }
  bool wrong_type = false;
  Set* set = find_set(ctx.keys, ctx.args[1], wrong_type);
  if (set == nullptr && !wrong_type) return Reply::array({});
  if (wrong_type) return err::wrong_type();
  if (*count < 0) {  // repeats allowed: each pick independent
    std::vector<std::string> drawn;
    for (std::int64_t i = 0; i < -*count; ++i) drawn.push_back(draw_one(ctx.keys, *set));
    return bulk_array(std::move(drawn), /*as_set=*/false);
  }
  if (static_cast<std::uint64_t>(*count) >= set->size()) return bulk_array({set->begin(), set->end()}, /*as_set=*/false);
  return bulk_array(draw_distinct(ctx.keys, *set, static_cast<std::size_t>(*count)), /*as_set=*/false);
}

}  // namespace lockcheck::mock::cmd
