// XGROUP CREATE/SETID/DESTROY/CREATECONSUMER/DELCONSUMER/HELP, XACK, XPENDING: consumer groups and their
// pending-entries lists, with 7.0.15's order of checks and error texts.
#include "redis/server/blocking_pop.hpp"
#include "redis/types/stream/stream_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/server/node.hpp"
#include "redis/util/numbers.hpp"
#include "redis/types/stream/stream_access.hpp"
#include "redis/command_table/subcommands.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

using namespace stream_cmd;

Reply subcommand_syntax_error(const Command& args, std::string_view container) {
  return Reply::error("ERR unknown subcommand or wrong number of arguments for '" + args[1].substr(0, 128) + "'. Try " +
                      std::string(container) + " HELP.");
}

Reply xgroup_help() {
  return subcommand_help("XGROUP", {
      "CREATE <key> <groupname> <id|$> [option]",
      "    Create a new consumer group. Options are:",
      "    * MKSTREAM",
      "      Create the empty stream if it does not exist.",
      "    * ENTRIESREAD entries_read",
      "      Set the group's entries_read counter (internal use).",
      "CREATECONSUMER <key> <groupname> <consumer>",
      "    Create a new consumer in the specified group.",
      "DELCONSUMER <key> <groupname> <consumer>",
      "    Remove the specified consumer.",
      "DESTROY <key> <groupname>",
      "    Remove the specified group.",
      "SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]",
      "    Set the current group ID and entries_read counter.",
  });
}

Reply pending_summary(const ConsumerGroup& group) {
  if (group.pending.empty()) {
    return Reply::array({Reply::integer_reply(0), Reply::nil(), Reply::nil(), Reply::null_array()});
  }
  std::vector<Reply> consumers;
  for (const auto& [name, consumer] : group.consumers) {
    if (consumer.pending.empty()) continue;
    consumers.push_back(Reply::array({Reply::bulk(name), Reply::bulk(std::to_string(consumer.pending.size()))}));
  }
  return Reply::array({Reply::integer_reply(static_cast<std::int64_t>(group.pending.size())),
                       id_reply(group.pending.begin()->first), id_reply(group.pending.rbegin()->first),
                       Reply::array(std::move(consumers))});
}

}  // namespace

Reply xgroup(CommandContext& ctx) {
  const Command& args = ctx.args;
  const std::string sub = to_lower(args[1]);
  Stream* stream = nullptr;
  ConsumerGroup* group = nullptr;
  bool mkstream = false;
  std::int64_t entries_read = kEntriesReadUnknown;
  if (args.size() >= 4) {
    const bool create = sub == "create";
    const bool setid = sub == "setid";
    for (std::size_t i = 5; i < args.size();) {
      if (create && iequals(args[i], "mkstream")) {
        mkstream = true;
        ++i;
      } else if ((create || setid) && iequals(args[i], "entriesread") && i + 1 < args.size()) {
        auto parsed = parse_int64(args[i + 1]);
        if (!parsed) return err::not_integer();
        if (*parsed < 0 && *parsed != kEntriesReadUnknown) return Reply::error("ERR value for ENTRIESREAD must be positive or -1");
        entries_read = *parsed;
        i += 2;
      } else {
        return subcommand_syntax_error(args, "XGROUP");
      }
    }
    bool wrong_type = false;
    stream = find_stream(ctx.keys, args[2], wrong_type);
    if (wrong_type) return err::wrong_type();
  }
  if (args.size() >= 4 && !mkstream) {
    if (stream == nullptr) {
      return Reply::error("ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to use "
                          "the MKSTREAM option to create an empty stream automatically.");
    }
    auto found = stream->groups.find(args[3]);
    if (found != stream->groups.end()) group = &found->second;
    if (group == nullptr && (sub == "setid" || sub == "createconsumer" || sub == "delconsumer")) {
      return Reply::error("NOGROUP No such consumer group '" + args[3] + "' for key name '" + args[2] + "'");
    }
  }
  const std::size_t argc = args.size();
  if (argc == 2 && sub == "help") return xgroup_help();
  if (sub == "create" && argc >= 5 && argc <= 8) {
    StreamId id;
    if (args[4] == "$") {
      id = stream != nullptr ? stream->last_id : StreamId{};
    } else {
      Reply error;
      auto parsed = parse_id_or_reply(args[4], 0, true, error);
      if (!parsed) return error;
      id = *parsed;
    }
    if (stream == nullptr) {
      // MKSTREAM: the new key announces "new", then "xgroup-create" as its acting command.
      AnnouncedAs as(ctx.keys, "xgroup-create");
      stream = &std::get<StreamBox>(ctx.keys.add(args[2], StreamBox{}).value).get();
      stream->groups.emplace(args[3], ConsumerGroup{id, entries_read, {}, {}});
      return Reply::ok();
    }
    if (!stream->groups.emplace(args[3], ConsumerGroup{id, entries_read, {}, {}}).second) {
      return Reply::error("BUSYGROUP Consumer Group name already exists");
    }
    announce(ctx, args[2], "xgroup-create");
    return Reply::ok();
  }
  if (sub == "setid" && (argc == 5 || argc == 7)) {
    StreamId id;
    if (args[4] == "$") {
      id = stream->last_id;
    } else {
      Reply error;
      auto parsed = parse_id_or_reply(args[4], 0, false, error);
      if (!parsed) return error;
      id = *parsed;
    }
    group->last_delivered = id;
    group->entries_read = entries_read;
    announce(ctx, args[2], "xgroup-setid");
    return Reply::ok();
  }
  if (sub == "destroy" && argc == 4) {
    if (group == nullptr) return Reply::integer_reply(0);
    stream->groups.erase(args[3]);
    announce(ctx, args[2], "xgroup-destroy");
    return Reply::integer_reply(1);
  }
  if (sub == "createconsumer" && argc == 5) {
    auto [it, created] = group->consumers.try_emplace(args[4]);
    if (!created) return Reply::integer_reply(0);
    it->second.seen_time_ms = ctx.keys.now_ms();
    announce(ctx, args[2], "xgroup-createconsumer");
    return Reply::integer_reply(1);
  }
  if (sub == "delconsumer" && argc == 5) {
    auto consumer = group->consumers.find(args[4]);
    if (consumer == group->consumers.end()) return Reply::integer_reply(0);
    const auto pending = static_cast<std::int64_t>(consumer->second.pending.size());
    for (StreamId id : consumer->second.pending) group->pending.erase(id);
    group->consumers.erase(consumer);
    announce(ctx, args[2], "xgroup-delconsumer");
    return Reply::integer_reply(pending);
  }
  return subcommand_syntax_error(args, "XGROUP");
}

Reply xack(CommandContext& ctx) {
  const Command& args = ctx.args;
  bool wrong_type = false;
  Stream* stream = find_stream(ctx.keys, args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  ConsumerGroup* group = nullptr;
  if (stream != nullptr) {
    auto found = stream->groups.find(args[2]);
    if (found != stream->groups.end()) group = &found->second;
  }
  if (group == nullptr) return Reply::integer_reply(0);
  Reply error;
  auto ids = parse_ids_or_reply(args, 3, error);
  if (!ids) return error;
  std::int64_t acknowledged = 0;
  for (StreamId id : *ids) {
    auto pending = group->pending.find(id);
    if (pending == group->pending.end()) continue;
    group->consumers[pending->second.consumer].pending.erase(id);
    group->pending.erase(pending);
    ++acknowledged;
  }
  return Reply::integer_reply(acknowledged);
}

Reply xpending(CommandContext& ctx) {
  const Command& args = ctx.args;
  const std::size_t argc = args.size();
  const bool summary = argc == 3;
  if (argc != 3 && (argc < 6 || argc > 9)) return err::syntax();
  StreamId start, end;
  std::int64_t count = 0;
  std::int64_t min_idle_ms = 0;
  const std::string* consumer_name = nullptr;
  if (argc >= 6) {
    std::size_t at = 3;
    if (iequals(args[3], "idle")) {
      auto idle = parse_int64(args[4]);
      if (!idle) return err::not_integer();
      min_idle_ms = *idle;
      if (argc < 8) return err::syntax();
      at += 2;
    }
    auto parsed_count = parse_int64(args[at + 2]);
    if (!parsed_count) return err::not_integer();
    count = *parsed_count < 0 ? 0 : *parsed_count;
    Reply error;
    auto parsed_start = parse_range_start(args[at], error);
    if (!parsed_start) return error;
    auto parsed_end = parse_range_end(args[at + 1], error);
    if (!parsed_end) return error;
    start = *parsed_start;
    end = *parsed_end;
    if (at + 3 < argc) consumer_name = &args[at + 3];
  }
  bool wrong_type = false;
  Stream* stream = find_stream(ctx.keys, args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  auto group = stream == nullptr ? decltype(stream->groups.end()){} : stream->groups.find(args[2]);
  if (stream == nullptr || group == stream->groups.end()) return Reply::error(nogroup_key_or_group(args[1], args[2]));
  if (summary) return pending_summary(group->second);
  std::vector<StreamId> ids;
  if (consumer_name != nullptr) {
    auto consumer = group->second.consumers.find(*consumer_name);
    if (consumer == group->second.consumers.end()) return Reply::array({});
    for (auto it = consumer->second.pending.lower_bound(start); it != consumer->second.pending.end() && *it <= end; ++it) {
      ids.push_back(*it);
    }
  } else {
    for (auto it = group->second.pending.lower_bound(start); it != group->second.pending.end() && it->first <= end; ++it) {
      ids.push_back(it->first);
    }
  }
  const std::int64_t now = ctx.keys.now_ms();
  std::vector<Reply> out;
  for (StreamId id : ids) {
    if (count == 0) break;
    const PendingEntry& pending = group->second.pending.at(id);
    const std::int64_t idle = now - pending.delivery_time_ms;
    if (min_idle_ms != 0 && idle < min_idle_ms) continue;
    --count;
    out.push_back(Reply::array({id_reply(id), Reply::bulk(pending.consumer), Reply::integer_reply(idle < 0 ? 0 : idle),
                                Reply::integer_reply(pending.delivery_count)}));
  }
  return Reply::array(std::move(out));
}

}  // namespace lockcheck::mock::cmd
