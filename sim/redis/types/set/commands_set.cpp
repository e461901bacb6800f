// Set commands: SADD, SREM, SISMEMBER, SMISMEMBER, SMEMBERS, SCARD, SMOVE, SINTERCARD. The random ones
// (SPOP, SRANDMEMBER) are in commands_set_random.cpp, the multi-key algebra in commands_set_algebra.cpp.
#include "redis/types/set/set_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/types/set/set_access.hpp"

namespace lockcheck::mock::cmd {

Reply sadd(CommandContext& ctx) {
  bool wrong_type = false;
  Set* set = find_set(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  bool created = set == nullptr;
  if (created) set = &std::get<Set>(ctx.keys.add(ctx.args[1], Value{Set{}}).value);
  std::int64_t added = 0;
  for (std::size_t i = 2; i < ctx.args.size(); ++i) added += set->insert(ctx.args[i]).second ? 1 : 0;
  if (!created && added > 0) ctx.keys.modified(ctx.args[1]);
  return Reply::integer_reply(added);
}

Reply srem(CommandContext& ctx) {
  bool wrong_type = false;
  Set* set = find_set(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  if (set == nullptr) return Reply::integer_reply(0);
  std::int64_t removed = 0;
  for (std::size_t i = 2; i < ctx.args.size() && !set->empty(); ++i) removed += static_cast<std::int64_t>(set->erase(ctx.args[i]));
  settle_set(ctx.keys, ctx.args[1], *set, removed > 0);
  return Reply::integer_reply(removed);
}

Reply sismember(CommandContext& ctx) {
  bool wrong_type = false;
  Set* set = find_set(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  return Reply::integer_reply(set != nullptr && set->contains(ctx.args[2]) ? 1 : 0);
}

Reply smismember(CommandContext& ctx) {
  bool wrong_type = false;
  Set* set = find_set(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  std::vector<Reply> out;
  for (std::size_t i = 2; i < ctx.args.size(); ++i) {
    out.push_back(Reply::integer_reply(set != nullptr && set->contains(ctx.args[i]) ? 1 : 0));
  }
  return Reply::array(std::move(out));
}

Reply smembers(CommandContext& ctx) {
  bool wrong_type = false;
  Set* set = find_set(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  return set == nullptr ? Reply::set({}) : set_reply(*set);
}

Reply scard(CommandContext& ctx) {
  bool wrong_type = false;
  Set* set = find_set(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  return Reply::integer_reply(set == nullptr ? 0 : static_cast<std::int64_t>(set->size()));
}

// Redis checks the source's existence before either key's type, and the same key is a membership test.
Reply smove(CommandContext& ctx) {
  const std::string& source_key = ctx.args[1];
  const std::string& destination_key = ctx.args[2];
  const std::string& member = ctx.args[3];
  bool source_wrong = false, destination_wrong = false;
  Set* source = find_set(ctx.keys, source_key, source_wrong);
  Set* destination = find_set(ctx.keys, destination_key, destination_wrong);
  if (source == nullptr && !source_wrong) return Reply::integer_reply(0);
  if (source_wrong || destination_wrong) return err::wrong_type();
  if (source_key == destination_key) return Reply::integer_reply(source->contains(member) ? 1 : 0);
  if (source->erase(member) == 0) return Reply::integer_reply(0);
  settle_set(ctx.keys, source_key, *source, true);
  if (destination == nullptr) {
    std::get<Set>(ctx.keys.add(destination_key, Value{Set{}}).value).insert(member);
  } else if (destination->insert(member).second) {
    ctx.keys.modified(destination_key);
  }
  return Reply::integer_reply(1);
}

}  // namespace lockcheck::mock::cmd
