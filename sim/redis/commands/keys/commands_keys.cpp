// Generic key commands: DEL, EXISTS, the EXPIRE family, TTL/PTTL, PERSIST, TYPE.
#include <limits>

#include "redis/commands/keys/keys_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();

enum ExpireFlag : unsigned { kNx = 1, kXx = 2, kGt = 4, kLt = 8 };

// expireGenericCommand of Redis 7.0: options first, then the number, then overflow, then the key.
Reply expire_generic(CommandContext& ctx, std::int64_t basetime_ms, bool seconds, std::string_view name) {
  const Command& args = ctx.args;
  unsigned flags = 0;
  for (std::size_t i = 3; i < args.size(); ++i) {
    if (iequals(args[i], "nx")) flags |= kNx;
    else if (iequals(args[i], "xx")) flags |= kXx;
    else if (iequals(args[i], "gt")) flags |= kGt;
    else if (iequals(args[i], "lt")) flags |= kLt;
    else return Reply::error("ERR Unsupported option " + args[i]);
  }
  if ((flags & kNx) && (flags & (kXx | kGt | kLt))) {
    return Reply::error("ERR NX and XX, GT or LT options at the same time are not compatible");
  }
  if ((flags & kGt) && (flags & kLt)) return Reply::error("ERR GT and LT options at the same time are not compatible");
  auto when = parse_int64(args[2]);
  if (!when) return err::not_integer();
  std::int64_t when_ms = *when;
  auto invalid = [&] { return Reply::error("ERR invalid expire time in '" + std::string(name) + "' command"); };
  if (seconds) {
    if (when_ms > kInt64Max / 1000 || when_ms < kInt64Min / 1000) return invalid();
    when_ms *= 1000;
  }
  if (when_ms > kInt64Max - basetime_ms) return invalid();
  when_ms += basetime_ms;

  Entry* entry = ctx.keys.find(args[1]);
  if (entry == nullptr) return Reply::integer_reply(0);
  if (flags != 0) {
    const auto& current = entry->expire_at_ms;  // none = an infinite TTL for GT/LT
    if ((flags & kNx) && current) return Reply::integer_reply(0);
    if ((flags & kXx) && !current) return Reply::integer_reply(0);
    if ((flags & kGt) && (!current || when_ms <= *current)) return Reply::integer_reply(0);
    if ((flags & kLt) && current && when_ms >= *current) return Reply::integer_reply(0);
  }
  if (when_ms <= ctx.keys.now_ms()) {
    // A deadline already past deletes the key at once (checkAlreadyExpired).
    ctx.keys.remove(args[1]);
    return Reply::integer_reply(1);
  }
  ctx.keys.set_expire(args[1], when_ms);
  return Reply::integer_reply(1);
}

// TTL/PTTL (time left) and EXPIRETIME/PEXPIRETIME (`absolute`: the deadline), rounded as Redis rounds.
// Like EXISTS and TYPE, a lookup without touching the key (7.0.15: LOOKUP_NOTOUCH): its idle time and LFU
// counter stay, so these reads do not change what an LRU or LFU policy evicts.
Reply ttl_generic(CommandContext& ctx, bool milliseconds, bool absolute = false) {
  Entry* entry = ctx.keys.peek(ctx.args[1]);
  if (entry == nullptr) return Reply::integer_reply(-2);
  if (!entry->expire_at_ms) return Reply::integer_reply(-1);
  std::int64_t ttl_ms = *entry->expire_at_ms - (absolute ? 0 : ctx.keys.now_ms());
  if (ttl_ms < 0) ttl_ms = 0;
  return Reply::integer_reply(milliseconds ? ttl_ms : (ttl_ms + 500) / 1000);
}

}  // namespace

Reply del(CommandContext& ctx) {
  std::int64_t removed = 0;
  for (std::size_t i = 1; i < ctx.args.size(); ++i) removed += ctx.keys.remove(ctx.args[i]) ? 1 : 0;
  return Reply::integer_reply(removed);
}

Reply exists(CommandContext& ctx) {
  std::int64_t count = 0;  // duplicates count twice, as in Redis
  for (std::size_t i = 1; i < ctx.args.size(); ++i) count += ctx.keys.peek(ctx.args[i]) != nullptr ? 1 : 0;
  return Reply::integer_reply(count);
}

Reply expire(CommandContext& ctx) { return expire_generic(ctx, ctx.keys.now_ms(), true, "expire"); }
Reply pexpire(CommandContext& ctx) { return expire_generic(ctx, ctx.keys.now_ms(), false, "pexpire"); }
Reply expireat(CommandContext& ctx) { return expire_generic(ctx, 0, true, "expireat"); }
Reply pexpireat(CommandContext& ctx) { return expire_generic(ctx, 0, false, "pexpireat"); }
Reply ttl(CommandContext& ctx) { return ttl_generic(ctx, false); }
Reply pttl(CommandContext& ctx) { return ttl_generic(ctx, true); }
Reply expiretime(CommandContext& ctx) { return ttl_generic(ctx, false, true); }
Reply pexpiretime(CommandContext& ctx) { return ttl_generic(ctx, true, true); }

Reply persist(CommandContext& ctx) {
  if (ctx.keys.find(ctx.args[1]) == nullptr) return Reply::integer_reply(0);
  return Reply::integer_reply(ctx.keys.persist(ctx.args[1]) ? 1 : 0);
}

Reply type(CommandContext& ctx) {
  Entry* entry = ctx.keys.peek(ctx.args[1]);
  return Reply::status(entry == nullptr ? "none" : type_name(entry->value));
}

}  // namespace lockcheck::mock::cmd
