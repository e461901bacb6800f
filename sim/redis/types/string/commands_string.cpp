// String commands: SET with all its options, SETEX/PSETEX, GET, GETDEL, GETEX, GETSET, APPEND, STRLEN, INCR/DECR/INCRBY/DECRBY.
#include <limits>
#include <optional>

#include "redis/types/string/string_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();

enum SetFlag : unsigned { kNx = 1, kXx = 2, kGet = 4, kKeepTtl = 8, kEx = 16, kPx = 32, kExAt = 64, kPxAt = 128 };
constexpr unsigned kAnyExpiry = kEx | kPx | kExAt | kPxAt;

// Parses SET's options as Redis 7.0's parseExtendedStringArgumentsOrReply does: repeating the same option
// is accepted, conflicting ones are a syntax error.
Reply set_command(CommandContext& ctx) {
  const Command& args = ctx.args;
  unsigned flags = 0;
  const std::string* expire_arg = nullptr;
  for (std::size_t j = 3; j < args.size(); ++j) {
    const std::string& opt = args[j];
    bool has_next = j + 1 < args.size();
    auto expiry_option = [&](unsigned flag) {
      if ((flags & kKeepTtl) || (flags & (kAnyExpiry & ~flag)) || !has_next) return false;
      flags |= flag;
      expire_arg = &args[++j];
      return true;
    };
    if (iequals(opt, "nx") && !(flags & kXx)) flags |= kNx;
    else if (iequals(opt, "xx") && !(flags & kNx)) flags |= kXx;
    else if (iequals(opt, "get")) flags |= kGet;
    else if (iequals(opt, "keepttl") && !(flags & kAnyExpiry)) flags |= kKeepTtl;
    else if (iequals(opt, "ex") && expiry_option(kEx)) continue;
    else if (iequals(opt, "px") && expiry_option(kPx)) continue;
    else if (iequals(opt, "exat") && expiry_option(kExAt)) continue;
    else if (iequals(opt, "pxat") && expiry_option(kPxAt)) continue;
    else return err::syntax();
  }

  std::optional<std::int64_t> expire_at_ms;
  if (expire_arg != nullptr) {
    auto value = parse_int64(*expire_arg);
    if (!value) return err::not_integer();
    bool seconds = (flags & (kEx | kExAt)) != 0;
    auto invalid = [] { return Reply::error("ERR invalid expire time in 'set' command"); };
    std::int64_t ms = *value;
    if (ms <= 0 || (seconds && ms > kInt64Max / 1000)) return invalid();
    if (seconds) ms *= 1000;
    if (flags & (kEx | kPx)) {
      if (ms > kInt64Max - ctx.keys.now_ms()) return invalid();
      ms += ctx.keys.now_ms();
    }
    expire_at_ms = ms;
  }

  Entry* existing = ctx.keys.find(args[1]);
  Reply reply = Reply::ok();
  if (flags & kGet) {
    if (existing == nullptr) {
      reply = Reply::nil();
    } else if (auto* text = std::get_if<std::string>(&existing->value)) {
      reply = Reply::bulk(*text);
    } else {
      return err::wrong_type();
    }
  }
  if (((flags & kNx) && existing != nullptr) || ((flags & kXx) && existing == nullptr)) {
    return (flags & kGet) ? reply : Reply::nil();
  }
  ctx.keys.put(args[1], Value{args[2]}, (flags & kKeepTtl) != 0);
  if (expire_at_ms) ctx.keys.set_expire(args[1], *expire_at_ms);
  return reply;
}

Reply incr_by(CommandContext& ctx, std::int64_t delta) {
  Entry* entry = ctx.keys.find(ctx.args[1]);
  std::int64_t current = 0;
  if (entry != nullptr) {
    auto* text = std::get_if<std::string>(&entry->value);
    if (text == nullptr) return err::wrong_type();
    auto parsed = parse_int64(*text);
    if (!parsed) return err::not_integer();
    current = *parsed;
  }
  if ((delta < 0 && current < 0 && delta < kInt64Min - current) ||
      (delta > 0 && current > 0 && delta > kInt64Max - current)) {
    return err::reply(err::kOverflow);
  }
  std::int64_t result = current + delta;
  if (entry == nullptr) {
    entry = &ctx.keys.add(ctx.args[1], Value{std::to_string(result)});
  } else {
    std::get<std::string>(entry->value) = std::to_string(result);  // keeps the TTL, as INCR does
    ctx.keys.modified(ctx.args[1]);
  }
  entry->encoding = Encoding::int_;  // a new integer object, whatever encoding the old value had
  return Reply::integer_reply(result);
}


// SETEX/PSETEX key ttl value: SET key value EX|PX ttl, with the command's own name in the error text.
Reply set_with_ttl(CommandContext& ctx, bool seconds, const char* name) {
  auto ttl = parse_int64(ctx.args[2]);
  if (!ttl) return err::not_integer();
  if (*ttl <= 0 || (seconds && *ttl > kInt64Max / 1000)) return Reply::error(std::string("ERR invalid expire time in '") + name + "' command");
  const std::int64_t ttl_ms = seconds ? *ttl * 1000 : *ttl;
  if (ttl_ms > kInt64Max - ctx.keys.now_ms()) return Reply::error(std::string("ERR invalid expire time in '") + name + "' command");
  ctx.keys.put(ctx.args[1], Value{ctx.args[3]}, false);
  ctx.keys.set_expire(ctx.args[1], ctx.keys.now_ms() + ttl_ms);
  return Reply::ok();
}

}  // namespace

Reply set(CommandContext& ctx) { return set_command(ctx); }

Reply get(CommandContext& ctx) {
  Entry* entry = ctx.keys.find(ctx.args[1]);
  if (entry == nullptr) return Reply::nil();
  auto* text = std::get_if<std::string>(&entry->value);
  if (text == nullptr) return err::wrong_type();
  return Reply::bulk(*text);
}

Reply getdel(CommandContext& ctx) {
  Reply reply = get(ctx);
  if (reply.kind == Reply::Kind::bulk) ctx.keys.remove(ctx.args[1]);
  return reply;
}

// SETNX key value: 1 when set, 0 when the key exists (of any type). Never sets an expiry: the two-command
// lock pattern (setnx-then-expire) depends on exactly that.
Reply setnx(CommandContext& ctx) {
  if (ctx.keys.find(ctx.args[1]) != nullptr) return Reply::integer_reply(0);
  ctx.keys.add(ctx.args[1], Value(ctx.args[2]));
  return Reply::integer_reply(1);
}

Reply incr(CommandContext& ctx) { return incr_by(ctx, 1); }
Reply decr(CommandContext& ctx) { return incr_by(ctx, -1); }

Reply incrby(CommandContext& ctx) {
  auto delta = parse_int64(ctx.args[2]);
  if (!delta) return err::not_integer();
  return incr_by(ctx, *delta);
}

Reply decrby(CommandContext& ctx) {
  auto delta = parse_int64(ctx.args[2]);
  if (!delta) return err::not_integer();
  if (*delta == kInt64Min) return Reply::error("ERR decrement would overflow");
  return incr_by(ctx, -*delta);
}

Reply setex(CommandContext& ctx) { return set_with_ttl(ctx, true, "setex"); }
Reply psetex(CommandContext& ctx) { return set_with_ttl(ctx, false, "psetex"); }

// GETEX key [EX s | PX ms | EXAT s | PXAT ms | PERSIST]: as Redis 7.0, the options' shape is checked first, then
// the key is looked up (missing: nil, another type: WRONGTYPE), and only then the time; a deadline already in
// the past deletes the key (the old value is still the reply).
Reply getex(CommandContext& ctx) {
  const Command& args = ctx.args;
  const bool persist = args.size() == 3 && iequals(args[2], "persist");
  const std::string opt = args.size() == 4 ? to_lower(args[2]) : "";
  const bool seconds = opt == "ex" || opt == "exat";
  const bool relative = opt == "ex" || opt == "px";
  if (!persist && args.size() != 2 && !(seconds || relative || opt == "pxat")) return err::syntax();
  Reply reply = get(ctx);
  if (reply.is_nil() || reply.is_error()) return reply;
  if (persist) {
    ctx.keys.persist(args[1]);
    return reply;
  }
  if (opt.empty()) return reply;
  auto value = parse_int64(args[3]);
  if (!value) return err::not_integer();
  auto invalid = [] { return Reply::error("ERR invalid expire time in 'getex' command"); };
  std::int64_t expire_at_ms = *value;
  if (expire_at_ms <= 0 || (seconds && expire_at_ms > kInt64Max / 1000)) return invalid();
  if (seconds) expire_at_ms *= 1000;
  if (relative) {
    if (expire_at_ms > kInt64Max - ctx.keys.now_ms()) return invalid();
    expire_at_ms += ctx.keys.now_ms();
  }
  if (expire_at_ms > ctx.keys.now_ms()) {
    ctx.keys.set_expire(args[1], expire_at_ms);
  } else {
    ctx.keys.remove(args[1]);
  }
  return reply;
}

Reply getset(CommandContext& ctx) {
  Reply previous = get(ctx);
  if (previous.is_error()) return previous;
  ctx.keys.put(ctx.args[1], Value{ctx.args[2]}, false);  // clears the TTL, as SET does
  return previous;
}

Reply append(CommandContext& ctx) {
  Entry* entry = ctx.keys.find(ctx.args[1]);
  if (entry == nullptr) {
    ctx.keys.add(ctx.args[1], Value{ctx.args[2]});
    return Reply::integer_reply(static_cast<std::int64_t>(ctx.args[2].size()));
  }
  auto* text = std::get_if<std::string>(&entry->value);
  if (text == nullptr) return err::wrong_type();
  *text += ctx.args[2];
  entry->encoding = Encoding::raw;  // Redis unshares the value into a growable string first
  ctx.keys.modified(ctx.args[1]);
  return Reply::integer_reply(static_cast<std::int64_t>(text->size()));
}

Reply strlen(CommandContext& ctx) {
  Reply value = get(ctx);
  if (value.is_error()) return value;
  return Reply::integer_reply(value.is_nil() ? 0 : static_cast<std::int64_t>(value.text.size()));
}

}  // namespace lockcheck::mock::cmd
