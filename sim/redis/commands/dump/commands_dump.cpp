// DUMP key and RESTORE key ttl payload [REPLACE] [ABSTTL] [IDLETIME s] [FREQ f], as redis-server 7.0.15's
// dumpCommand / restoreCommand: the payload format is rdb_object.hpp's; the checks come in Redis's order
// (options, the key taken, the TTL, the footer, the value) so the same bad call gets the same error.
#include <limits>

#include "redis/commands/dump/dump_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/server/node.hpp"
#include "redis/util/numbers.hpp"
#include "redis/rdb/rdb_io.hpp"
#include "redis/rdb/rdb_object.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

constexpr std::int64_t kMaxFreq = 255;

std::int64_t list_fill(CommandContext& ctx) {
  return parse_int64(ctx.node.config().value("list-max-listpack-size")).value_or(-2);
}

}  // namespace

Reply dump(CommandContext& ctx) {
  Entry* entry = ctx.keys.find(ctx.args[1]);
  if (entry == nullptr) return Reply::nil();
  const Encoding encoding =
      entry->encoding == Encoding::unsettled ? natural_encoding(entry->value, ctx.node.encoding_limits()) : entry->encoding;
  return Reply::bulk(dump_value(entry->value, encoding, list_fill(ctx)));
}

Reply restore(CommandContext& ctx) {
  const Command& args = ctx.args;
  bool replace = false;
  bool absolute_ttl = false;
  std::optional<std::int64_t> idle_s;
  std::optional<std::int64_t> freq;
  for (std::size_t i = 4; i < args.size(); ++i) {
    const bool has_value = i + 1 < args.size();
    if (iequals(args[i], "replace")) {
      replace = true;
    } else if (iequals(args[i], "absttl")) {
      absolute_ttl = true;
    } else if (iequals(args[i], "idletime") && has_value && !freq) {
      idle_s = parse_int64(args[++i]);
      if (!idle_s) return err::not_integer();
      if (*idle_s < 0) return Reply::error("ERR Invalid IDLETIME value, must be >= 0");
    } else if (iequals(args[i], "freq") && has_value && !idle_s) {
      freq = parse_int64(args[++i]);
      if (!freq) return err::not_integer();
      if (*freq < 0 || *freq > kMaxFreq) return Reply::error("ERR Invalid FREQ value, must be >= 0 and <= 255");
    } else {
      return err::syntax();
    }
  }
  const std::string& key = args[1];
  if (!replace && ctx.keys.find(key) != nullptr) return Reply::error("BUSYKEY Target key name already exists.");
  auto ttl_ms = parse_int64(args[2]);
  if (!ttl_ms) return err::not_integer();
  if (*ttl_ms < 0) return Reply::error("ERR Invalid TTL value, must be >= 0");
  if (!dump_footer_is_valid(args[3])) return Reply::error("ERR DUMP payload version or checksum are wrong");
  auto restored = restore_value(args[3], ctx.node.encoding_limits());
  if (!restored) return Reply::error("ERR Bad data format");

  std::int64_t deadline_ms = *ttl_ms;
  if (deadline_ms != 0 && !absolute_ttl) {
    const std::int64_t now_ms = ctx.keys.now_ms();
    deadline_ms = deadline_ms > std::numeric_limits<std::int64_t>::max() - now_ms ? std::numeric_limits<std::int64_t>::max()
                                                                                   : deadline_ms + now_ms;
  }
  if (deadline_ms != 0 && deadline_ms <= ctx.keys.now_ms()) {
    // Already expired: the old key goes as if by DEL (Redis rewrites the command so), nothing is added.
    if (replace) {
      Actor as_del = ctx.keys.actor();
      as_del.command = "del";
      const Actor restoring = ctx.keys.actor();
      ctx.keys.set_actor(as_del);
      ctx.keys.remove(key);
      ctx.keys.set_actor(restoring);
    }
    return Reply::ok();
  }
  if (replace) ctx.keys.remove(key);
  Entry& entry = ctx.keys.add_with_encoding(key, std::move(restored->value), restored->encoding);
  // objectSetLRUOrLFU: IDLETIME counts under any policy but an LFU one (where FREQ would).
  const bool lfu = ctx.node.config().value("maxmemory-policy").find("lfu") != std::string::npos;
  if (freq && lfu) entry.lfu = LfuState{lfu_minutes(ctx.keys.now_ms()), static_cast<std::uint8_t>(*freq), true};
  if (idle_s && !lfu) entry.last_access_ms = ctx.keys.now_ms() - std::min(*idle_s, ctx.keys.now_ms() / 1000) * 1000;
  if (deadline_ms != 0) ctx.keys.set_expire(key, deadline_ms);
  return Reply::ok();
}

}  // namespace lockcheck::mock::cmd
