// XINFO STREAM [FULL [COUNT n]] / GROUPS / CONSUMERS / HELP, in 7.0.15's field order (maps in RESP3,
// flat arrays in RESP2). radix-tree-nodes is an estimate: the mock keeps no radix tree (README).
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

Reply integer(std::int64_t value) { return Reply::integer_reply(value); }
Reply count_of(std::size_t size) { return Reply::integer_reply(static_cast<std::int64_t>(size)); }
Reply text(std::string value) { return Reply::bulk(std::move(value)); }
Reply optional_integer(std::optional<std::int64_t> value) { return value ? integer(*value) : Reply::nil(); }
Reply entries_read(const ConsumerGroup& group) {
  return group.entries_read == kEntriesReadUnknown ? Reply::nil() : integer(group.entries_read);
}

Reply subcommand_syntax_error(const Command& args) {
  return Reply::error("ERR unknown subcommand or wrong number of arguments for '" + args[1].substr(0, 128) +
                      "'. Try XINFO HELP.");
}

// The fields XINFO STREAM starts with, plain or FULL.
std::vector<Reply> stream_header(const Stream& stream) {
  const std::size_t nodes = stream.nodes.size();
  return {text("length"), count_of(stream.size()), text("radix-tree-keys"), count_of(nodes),
          text("radix-tree-nodes"), count_of(nodes + 1), text("last-generated-id"), id_reply(stream.last_id),
          text("max-deleted-entry-id"), id_reply(stream.max_deleted_id), text("entries-added"),
          integer(static_cast<std::int64_t>(stream.entries_added)), text("recorded-first-entry-id"),
          id_reply(stream.first_id)};
}

Reply full_group(const Stream& stream, const std::string& name, const ConsumerGroup& group, std::int64_t count) {
  auto within = [count](std::size_t n) { return count == 0 || static_cast<std::int64_t>(n) < count; };
  std::vector<Reply> pending;
  for (auto it = group.pending.begin(); it != group.pending.end() && within(pending.size()); ++it) {
    pending.push_back(Reply::array({id_reply(it->first), text(it->second.consumer), integer(it->second.delivery_time_ms),
                                    integer(it->second.delivery_count)}));
  }
  std::vector<Reply> consumers;
  for (const auto& [consumer_name, consumer] : group.consumers) {
    std::vector<Reply> own;
    for (auto it = consumer.pending.begin(); it != consumer.pending.end() && within(own.size()); ++it) {
      const PendingEntry& entry = group.pending.at(*it);
      own.push_back(Reply::array({id_reply(*it), integer(entry.delivery_time_ms), integer(entry.delivery_count)}));
    }
    consumers.push_back(Reply::map({text("name"), text(consumer_name), text("seen-time"), integer(consumer.seen_time_ms),
                                    text("pel-count"), count_of(consumer.pending.size()), text("pending"),
                                    Reply::array(std::move(own))}));
  }
  return Reply::map({text("name"), text(name), text("last-delivered-id"), id_reply(group.last_delivered),
                     text("entries-read"), entries_read(group), text("lag"), optional_integer(group_lag(stream, group)),
                     text("pel-count"), count_of(group.pending.size()), text("pending"), Reply::array(std::move(pending)),
                     text("consumers"), Reply::array(std::move(consumers))});
}

Reply stream_info(const Command& args, const Stream& stream) {
  const std::size_t options = args.size() - 3;
  bool full = false;
  std::int64_t count = 10;
  if (options != 0) {
    if ((options != 1 && options != 3) || !iequals(args[3], "full")) return subcommand_syntax_error(args);
    full = true;
    if (options == 3) {
      if (!iequals(args[4], "count")) return subcommand_syntax_error(args);
      auto parsed = parse_int64(args[5]);
      if (!parsed) return err::not_integer();
      count = *parsed < 0 ? 10 : *parsed;
    }
  }
  std::vector<Reply> out = stream_header(stream);
  if (!full) {
    out.push_back(text("groups"));
    out.push_back(count_of(stream.groups.size()));
    out.push_back(text("first-entry"));
    out.push_back(stream.entries.empty() ? Reply::nil()
                                         : entry_reply(stream.entries.begin()->first, stream.entries.begin()->second));
    out.push_back(text("last-entry"));
    out.push_back(stream.entries.empty() ? Reply::nil()
                                         : entry_reply(stream.entries.rbegin()->first, stream.entries.rbegin()->second));
    return Reply::map(std::move(out));
  }
  std::vector<Reply> entries;
  for (auto it = stream.entries.begin();
       it != stream.entries.end() && (count == 0 || static_cast<std::int64_t>(entries.size()) < count); ++it) {
    entries.push_back(entry_reply(it->first, it->second));
  }
  std::vector<Reply> groups;
  for (const auto& [name, group] : stream.groups) groups.push_back(full_group(stream, name, group, count));
  out.push_back(text("entries"));
  out.push_back(Reply::array(std::move(entries)));
  out.push_back(text("groups"));
  out.push_back(Reply::array(std::move(groups)));
  return Reply::map(std::move(out));
}

}  // namespace

Reply xinfo(CommandContext& ctx) {
  const Command& args = ctx.args;
  if (iequals(args[1], "help")) {
    if (args.size() != 2) return subcommand_syntax_error(args);
    return subcommand_help("XINFO", {
        "CONSUMERS <key> <groupname>",
        "    Show consumers of <groupname>.",
        "GROUPS <key>",
        "    Show the stream consumer groups.",
        "STREAM <key> [FULL [COUNT <count>]",
        "    Show information about the stream.",
    });
  }
  if (args.size() < 3) return subcommand_syntax_error(args);
  bool wrong_type = false;
  const Stream* stream = find_stream(ctx.keys, args[2], wrong_type);
  if (wrong_type) return err::wrong_type();
  if (stream == nullptr) return Reply::error("ERR no such key");
  const std::string sub = to_lower(args[1]);
  if (sub == "consumers" && args.size() == 4) {
    auto group = stream->groups.find(args[3]);
    if (group == stream->groups.end()) {
      return Reply::error("NOGROUP No such consumer group '" + args[3] + "' for key name '" + args[2] + "'");
    }
    std::vector<Reply> out;
    for (const auto& [name, consumer] : group->second.consumers) {
      const std::int64_t idle = ctx.keys.now_ms() - consumer.seen_time_ms;
      out.push_back(Reply::map({text("name"), text(name), text("pending"), count_of(consumer.pending.size()),
                                text("idle"), integer(idle < 0 ? 0 : idle)}));
    }
    return Reply::array(std::move(out));
  }
  if (sub == "groups" && args.size() == 3) {
    std::vector<Reply> out;
    for (const auto& [name, group] : stream->groups) {
      out.push_back(Reply::map({text("name"), text(name), text("consumers"), count_of(group.consumers.size()),
                                text("pending"), count_of(group.pending.size()), text("last-delivered-id"),
                                id_reply(group.last_delivered), text("entries-read"), entries_read(group), text("lag"),
                                optional_integer(group_lag(*stream, group))}));
    }
    return Reply::array(std::move(out));
  }
  if (sub == "stream") return stream_info(args, *stream);
  return subcommand_syntax_error(args);
}

}  // namespace lockcheck::mock::cmd
