// The numbered databases: SELECT, SWAPDB, MOVE, COPY, FLUSHDB, FLUSHALL, DBSIZE (Redis 7.0's db.c order of
// checks and texts). A connection's database is Session::db; a script's SELECT changes only the keyspace's
// selection for the rest of that script.
#include <climits>
#include <optional>

#include "redis/commands/keys/keys_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/server/node.hpp"
#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

constexpr std::string_view kOutOfRange = "ERR DB index is out of range";
constexpr std::string_view kSameObject = "ERR source and destination objects are the same";

// getIntFromObjectOrReply: a strict integer in C int's range; otherwise Redis's error, or `message` for both
// failures when given.
std::optional<Reply> parse_int(std::string_view text, int& out, std::string_view message = {}) {
  auto value = parse_int64(text);
  if (!value) return message.empty() ? err::not_integer() : Reply::error("ERR " + std::string(message));
  if (*value < INT_MIN || *value > INT_MAX) {
    return message.empty() ? Reply::error("ERR value is out of range, value must between -2147483648 and 2147483647")
                           : Reply::error("ERR " + std::string(message));
  }
  out = static_cast<int>(*value);
  return std::nullopt;
}

bool valid_db(int db) { return db >= 0 && db < kDatabases; }

bool cluster_mode(const CommandContext& ctx) { return ctx.node.cluster_view() != nullptr; }

// FLUSHDB/FLUSHALL [ASYNC|SYNC]; the mock frees synchronously either way.
bool flush_arguments_ok(const Command& args) {
  return args.size() == 1 || (args.size() == 2 && (iequals(args[1], "sync") || iequals(args[1], "async")));
}

}  // namespace

Reply select(CommandContext& ctx) {
  int db = 0;
  if (auto error = parse_int(ctx.args[1], db)) return std::move(*error);
  if (cluster_mode(ctx) && db != 0) return Reply::error("ERR SELECT is not allowed in cluster mode");
  if (!valid_db(db)) return err::reply(kOutOfRange);
  // Inside a script only the script's database changes (Redis 7); the caller's stays.
  if (!ctx.in_script) ctx.session.db = db;
  ctx.keys.select(db);
  return Reply::ok();
}

Reply swapdb(CommandContext& ctx) {
  if (cluster_mode(ctx)) return Reply::error("ERR SWAPDB is not allowed in cluster mode");
  int first = 0, second = 0;
  if (auto error = parse_int(ctx.args[1], first, "invalid first DB index")) return std::move(*error);
  if (auto error = parse_int(ctx.args[2], second, "invalid second DB index")) return std::move(*error);
  if (!valid_db(first) || !valid_db(second)) return err::reply(kOutOfRange);
  ctx.keys.swap(first, second);
  return Reply::ok();
}

Reply move(CommandContext& ctx) {
  if (cluster_mode(ctx)) return Reply::error("ERR MOVE is not allowed in cluster mode");
  const std::string& key = ctx.args[1];
  int target = 0;
  if (auto error = parse_int(ctx.args[2], target)) return std::move(*error);
  if (!valid_db(target)) return err::reply(kOutOfRange);
  const int source = ctx.keys.selected();
  if (target == source) return err::reply(kSameObject);
  Entry* entry = ctx.keys.find(key);
  if (entry == nullptr) return Reply::integer_reply(0);
  ctx.keys.select(target);
  const bool taken = ctx.keys.find(key) != nullptr;
  if (!taken) {
    // std::map nodes are stable: `entry` is still the source's while the target database is selected.
    const std::optional<std::int64_t> deadline = entry->expire_at_ms;
    Entry& moved = ctx.keys.add(key, std::move(entry->value));  // the same object moves
    moved.encoding = entry->encoding;
    moved.lfu = entry->lfu;
    if (deadline) ctx.keys.set_expire(key, *deadline);
  }
  ctx.keys.select(source);
  if (taken) return Reply::integer_reply(0);
  ctx.keys.remove(key);
  ctx.node.notify_keyspace_event('g', "move_from", key, source);
  ctx.node.notify_keyspace_event('g', "move_to", key, target);
  return Reply::integer_reply(1);
}

Reply copy(CommandContext& ctx) {
  const Command& args = ctx.args;
  const int source = ctx.keys.selected();
  int target = source;
  bool replace = false;
  for (std::size_t i = 3; i < args.size(); ++i) {
    if (iequals(args[i], "replace")) {
      replace = true;
    } else if (iequals(args[i], "db") && i + 1 < args.size()) {
      if (auto error = parse_int(args[++i], target)) return std::move(*error);
      if (!valid_db(target)) return err::reply(kOutOfRange);
    } else {
      return err::syntax();
    }
  }
  if (cluster_mode(ctx) && (source != 0 || target != 0)) {
    return Reply::error("ERR Copying to another database is not allowed in cluster mode");
  }
  const std::string& key = args[1];
  const std::string& new_key = args[2];
  if (source == target && key == new_key) return err::reply(kSameObject);
  Entry* entry = ctx.keys.find(key);
  if (entry == nullptr) return Reply::integer_reply(0);
  Value value = entry->value;
  const std::optional<std::int64_t> deadline = entry->expire_at_ms;
  const Encoding encoding = entry->encoding;  // Redis's copy keeps the original's encoding
  ctx.keys.select(target);
  const bool taken = ctx.keys.find(new_key) != nullptr;
  if (!taken || replace) {
    if (taken) ctx.keys.remove(new_key);
    ctx.keys.add(new_key, std::move(value)).encoding = encoding;
    if (deadline) ctx.keys.set_expire(new_key, *deadline);
  }
  ctx.keys.select(source);
  if (taken && !replace) return Reply::integer_reply(0);
  ctx.node.notify_keyspace_event('g', "copy_to", new_key, target);
  return Reply::integer_reply(1);
}

Reply flushdb(CommandContext& ctx) {
  if (!flush_arguments_ok(ctx.args)) return err::syntax();
  ctx.keys.clear();
  return Reply::ok();
}

Reply flushall(CommandContext& ctx) {
  if (!flush_arguments_ok(ctx.args)) return err::syntax();
  ctx.keys.clear_all();
  return Reply::ok();
}

Reply dbsize(CommandContext& ctx) { return Reply::integer_reply(static_cast<std::int64_t>(ctx.keys.size())); }

}  // namespace lockcheck::mock::cmd
