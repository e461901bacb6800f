// Commands over several keys: MGET, MSET, MSETNX, TOUCH, RENAME, RENAMENX.
#include "redis/commands/keys/keys_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::mock::cmd {
namespace {

// Moves src's value and deadline to dst (replacing dst), as RENAME does; src must exist. In Redis's order:
// dst is added ("new"), src removed, then rename_from and rename_to are announced.
void move_key(CommandContext& ctx, const std::string& src, const std::string& dst) {
  Entry* entry = ctx.keys.peek(src);  // the caller's lookup counted the access
  Value value = entry->value;
  const std::optional<std::int64_t> deadline = entry->expire_at_ms;
  const Encoding encoding = entry->encoding;  // the same object under a new name
  const LfuState lfu = entry->lfu;
  ctx.keys.remove(dst);
  Entry& moved = ctx.keys.add(dst, std::move(value));
  moved.encoding = encoding;
  moved.lfu = lfu;
  if (deadline) ctx.keys.set_expire(dst, *deadline);
  ctx.keys.remove(src);
  ctx.node.notify_keyspace_event('g', "rename_from", src, ctx.keys.selected());
  ctx.node.notify_keyspace_event('g', "rename_to", dst, ctx.keys.selected());
}

Reply rename_generic(CommandContext& ctx, bool only_if_absent) {
  const std::string& src = ctx.args[1];
  const std::string& dst = ctx.args[2];
  if (ctx.keys.find(src) == nullptr) return Reply::error("ERR no such key");
  if (src == dst) return only_if_absent ? Reply::integer_reply(0) : Reply::ok();
  if (only_if_absent && ctx.keys.find(dst) != nullptr) return Reply::integer_reply(0);
  move_key(ctx, src, dst);
  return only_if_absent ? Reply::integer_reply(1) : Reply::ok();
}

}  // namespace

Reply mget(CommandContext& ctx) {
  std::vector<Reply> values;
  values.reserve(ctx.args.size() - 1);
  for (std::size_t i = 1; i < ctx.args.size(); ++i) {
    Entry* entry = ctx.keys.find(ctx.args[i]);
    const auto* text = entry == nullptr ? nullptr : std::get_if<std::string>(&entry->value);
    values.push_back(text == nullptr ? Reply::nil() : Reply::bulk(*text));  // another type reads as nil
  }
  return Reply::array(std::move(values));
}

Reply mset(CommandContext& ctx) {
  if (ctx.args.size() % 2 == 0) return err::arity("mset");
  for (std::size_t i = 1; i + 1 < ctx.args.size(); i += 2) ctx.keys.put(ctx.args[i], Value{ctx.args[i + 1]}, false);
  return Reply::ok();
}

Reply msetnx(CommandContext& ctx) {
  if (ctx.args.size() % 2 == 0) return err::arity("msetnx");
  for (std::size_t i = 1; i + 1 < ctx.args.size(); i += 2) {
    if (ctx.keys.find(ctx.args[i]) != nullptr) return Reply::integer_reply(0);
  }
  for (std::size_t i = 1; i + 1 < ctx.args.size(); i += 2) ctx.keys.put(ctx.args[i], Value{ctx.args[i + 1]}, false);
  return Reply::integer_reply(1);
}

Reply touch(CommandContext& ctx) {
  std::int64_t found = 0;
  for (std::size_t i = 1; i < ctx.args.size(); ++i) found += ctx.keys.find(ctx.args[i]) != nullptr ? 1 : 0;
  return Reply::integer_reply(found);
}

Reply rename(CommandContext& ctx) { return rename_generic(ctx, false); }
Reply renamenx(CommandContext& ctx) { return rename_generic(ctx, true); }

}  // namespace lockcheck::mock::cmd
