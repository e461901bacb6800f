// XREAD and XREADGROUP: entries after an ID, or a consumer group's new entries and a consumer's history.
// With BLOCK and nothing to read the client parks on the node (blocking.cpp) until an XADD gives it something,
// the timeout passes on the node clock, or (XREADGROUP) its key or group vanishes, as 7.0.15 does.
#include <limits>

#include "redis/types/stream/stream_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/server/node.hpp"
#include "redis/util/numbers.hpp"
#include "redis/types/stream/stream_access.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

using namespace stream_cmd;

constexpr std::int64_t kBlockedReadDefaultCount = 1000;  // XREAD_BLOCKED_DEFAULT_COUNT

struct ReadRequest {
  bool group_read = false;  // XREADGROUP
  std::optional<std::int64_t> block_ms;
  std::int64_t count = 0;  // 0: all
  bool noack = false;
  std::string group, consumer;
  std::size_t streams_at = 0;  // index of the first key
  std::size_t streams = 0;
  std::string_view key(const Command& args, std::size_t i) const { return args[streams_at + i]; }
  const std::string& id_text(const Command& args, std::size_t i) const { return args[streams_at + streams + i]; }
};

std::optional<ReadRequest> parse_read(CommandContext& ctx, bool group_read, Reply& error) {
  const Command& args = ctx.args;
  ReadRequest request;
  request.group_read = group_read;
  bool has_group = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::size_t more = args.size() - i - 1;
    const std::string& opt = args[i];
    if (iequals(opt, "block") && more > 0) {
      if (ctx.in_script) {
        return error = Reply::error("ERR " + args[0] + " command is not allowed with BLOCK option from scripts"), std::nullopt;
      }
      auto ms = parse_int64(args[++i]);
      if (!ms) return error = Reply::error("ERR timeout is not an integer or out of range"), std::nullopt;
      if (*ms < 0) return error = Reply::error("ERR timeout is negative"), std::nullopt;
      request.block_ms = *ms;
    } else if (iequals(opt, "count") && more > 0) {
      auto count = parse_int64(args[++i]);
      if (!count) return error = err::not_integer(), std::nullopt;
      request.count = *count < 0 ? 0 : *count;
    } else if (iequals(opt, "streams") && more > 0) {
      request.streams_at = i + 1;
      const std::size_t rest = args.size() - request.streams_at;
      if (rest % 2 != 0) {
        return error = Reply::error("ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be "
                                    "specified."),
               std::nullopt;
      }
      request.streams = rest / 2;
      break;
    } else if (iequals(opt, "group") && more >= 2) {
      if (!group_read) {
        return error = Reply::error("ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead."),
               std::nullopt;
      }
      request.group = args[i + 1];
      request.consumer = args[i + 2];
      has_group = true;
      i += 2;
    } else if (iequals(opt, "noack")) {
      if (!group_read) {
        return error = Reply::error("ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead."),
               std::nullopt;
      }
      request.noack = true;
    } else {
      return error = err::syntax(), std::nullopt;
    }
  }
  if (request.streams_at == 0) return error = err::syntax(), std::nullopt;
  if (group_read && !has_group) return error = Reply::error("ERR Missing GROUP option for XREADGROUP"), std::nullopt;
  return request;
}

StreamConsumer& lookup_or_create_consumer(CommandContext& ctx, std::string_view key, ConsumerGroup& group,
                                          const std::string& name) {
  auto it = group.consumers.find(name);
  if (it == group.consumers.end()) {
    it = group.consumers.emplace(name, StreamConsumer{}).first;
    it->second.seen_time_ms = ctx.keys.now_ms();
    announce(ctx, key, "xgroup-createconsumer");
  }
  it->second.seen_time_ms = ctx.keys.now_ms();
  return it->second;
}

// streamReplyWithRange for a group's new entries: moves last-delivered and entries-read, and (unless NOACK)
// records each delivery in the group's and the consumer's pending lists.
Reply deliver_new_entries(CommandContext& ctx, Stream& stream, ConsumerGroup& group, const std::string& consumer_name,
                          StreamConsumer& consumer, StreamId start, std::int64_t count, bool noack) {
  std::vector<Reply> out;
  for (auto it = stream.entries.lower_bound(start); it != stream.entries.end(); ++it) {
    const StreamId id = it->first;
    if (id > group.last_delivered) {
      if (group.entries_read != kEntriesReadUnknown && !stream_range_has_tombstones(stream, id)) {
        ++group.entries_read;
      } else if (stream.entries_added != 0) {
        group.entries_read = estimate_entries_read(stream, id).value_or(kEntriesReadUnknown);
      }
      group.last_delivered = id;
    }
    out.push_back(entry_reply(id, it->second));
    if (!noack) {
      auto [pending, inserted] = group.pending.try_emplace(id);
      if (!inserted && pending->second.consumer != consumer_name) {
        group.consumers[pending->second.consumer].pending.erase(id);
      }
      pending->second = PendingEntry{consumer_name, ctx.keys.now_ms(), 1};
      consumer.pending.insert(id);
    }
    if (count != 0 && static_cast<std::int64_t>(out.size()) == count) break;
  }
  return Reply::array(std::move(out));
}

// streamReplyWithRangeFromConsumerPEL: the consumer's pending entries after `start`, each delivered once more.
Reply deliver_history(CommandContext& ctx, const Stream& stream, ConsumerGroup& group, StreamConsumer& consumer,
                      StreamId start, std::int64_t count) {
  std::vector<Reply> out;
  for (auto it = consumer.pending.lower_bound(start);
       it != consumer.pending.end() && (count == 0 || static_cast<std::int64_t>(out.size()) < count); ++it) {
    const bool exists = stream.entries.count(*it) != 0;
    out.push_back(entry_or_tombstone(stream, *it));
    if (!exists) continue;
    PendingEntry& pending = group.pending[*it];
    pending.delivery_time_ms = ctx.keys.now_ms();
    ++pending.delivery_count;
  }
  return Reply::array(std::move(out));
}

// One stream's part of the reply: [key, entries] in RESP2, key => entries in a RESP3 map.
void add_stream_reply(std::vector<Reply>& out, CommandContext& ctx, std::string_view key, Reply entries) {
  if (ctx.resp == 3) {
    out.push_back(Reply::bulk(std::string(key)));
    out.push_back(std::move(entries));
  } else {
    out.push_back(Reply::array({Reply::bulk(std::string(key)), std::move(entries)}));
  }
}

Reply streams_reply(CommandContext& ctx, std::vector<Reply> out) {
  return ctx.resp == 3 ? Reply::map(std::move(out)) : Reply::array(std::move(out));
}

// A parked XREAD: its IDs were made concrete ($ resolved) when it blocked. Served by the first stream whose
// last ID passed the one it waits after.
std::optional<Reply> try_blocked_xread(CommandContext& ctx) {
  Reply ignored;
  auto request = parse_read(ctx, false, ignored);
  if (!request) return std::nullopt;
  const std::int64_t count = request->count != 0 ? request->count : kBlockedReadDefaultCount;
  for (std::size_t i = 0; i < request->streams; ++i) {
    bool wrong_type = false;
    Stream* stream = find_stream(ctx.keys, request->key(ctx.args, i), wrong_type);
    auto after = parse_stream_id(request->id_text(ctx.args, i), 0, true);
    // Redis wakes a reader when an XADD signals the key; a stream whose last ID passed the reader's but holds
    // nothing after it (entries deleted) does not.
    if (stream == nullptr || !after || stream->last_id <= *after || stream->entries.upper_bound(*after) == stream->entries.end()) {
      continue;
    }
    std::vector<Reply> entries;
    for (auto it = stream->entries.upper_bound(*after);
         it != stream->entries.end() && static_cast<std::int64_t>(entries.size()) < count; ++it) {
      entries.push_back(entry_reply(it->first, it->second));
    }
    std::vector<Reply> out;
    add_stream_reply(out, ctx, request->key(ctx.args, i), Reply::array(std::move(entries)));
    return streams_reply(ctx, std::move(out));
  }
  return std::nullopt;
}

// A parked XREADGROUP (always for ">"): served when a stream's last ID passes its group's last-delivered ID;
// answered with an error when the key or the group is gone (unblockDeletedStreamReadgroupClients).
std::optional<Reply> try_blocked_xreadgroup(CommandContext& ctx) {
  Reply ignored;
  auto request = parse_read(ctx, true, ignored);
  if (!request) return std::nullopt;
  const std::int64_t count = request->count != 0 ? request->count : kBlockedReadDefaultCount;
  for (std::size_t i = 0; i < request->streams; ++i) {
    const std::string_view key = request->key(ctx.args, i);
    bool wrong_type = false;
    Stream* stream = find_stream(ctx.keys, key, wrong_type);
    if (stream == nullptr) return Reply::error("UNBLOCKED the stream key no longer exists");
    auto group = stream->groups.find(request->group);
    if (group == stream->groups.end()) {
      return Reply::error("NOGROUP the consumer group this client was blocked on no longer exists");
    }
    if (stream->last_id <= group->second.last_delivered ||
        stream->entries.upper_bound(group->second.last_delivered) == stream->entries.end()) {
      continue;
    }
    const StreamId start = *next_stream_id(group->second.last_delivered);
    StreamConsumer& consumer = lookup_or_create_consumer(ctx, key, group->second, request->consumer);
    std::vector<Reply> out;
    add_stream_reply(out, ctx, key,
                     deliver_new_entries(ctx, *stream, group->second, request->consumer, consumer, start, count,
                                         request->noack));
    return streams_reply(ctx, std::move(out));
  }
  return std::nullopt;
}

Reply read(CommandContext& ctx, bool group_read) {
  const Command& args = ctx.args;
  Reply error;
  auto request = parse_read(ctx, group_read, error);
  if (!request) return error;
  // Resolve every stream's ID first, as Redis does before serving any of them.
  std::vector<StreamId> after(request->streams);
  std::vector<ConsumerGroup*> groups(request->streams, nullptr);
  Command parked = args;  // what a parked XREAD waits on: "$" made concrete
  for (std::size_t i = 0; i < request->streams; ++i) {
    const std::string_view key = request->key(args, i);
    bool wrong_type = false;
    Stream* stream = find_stream(ctx.keys, key, wrong_type);
    if (wrong_type) return err::wrong_type();
    if (group_read) {
      auto group = stream == nullptr ? decltype(stream->groups.end()){} : stream->groups.find(request->group);
      if (stream == nullptr || group == stream->groups.end()) {
        return Reply::error(nogroup_key_or_group(key, request->group) + " in XREADGROUP with GROUP option");
      }
      groups[i] = &group->second;
    }
    const std::string& text = request->id_text(args, i);
    if (text == "$") {
      if (group_read) {
        return Reply::error("ERR The $ ID is meaningless in the context of XREADGROUP: you want to read the history of "
                            "this consumer by specifying a proper ID, or use the > ID to get new messages. The $ ID "
                            "would just return an empty result set.");
      }
      after[i] = stream == nullptr ? StreamId{} : stream->last_id;
      parked[request->streams_at + request->streams + i] = format_stream_id(after[i]);
      continue;
    }
    if (text == ">") {
      if (!group_read) {
        return Reply::error("ERR The > ID can be specified only when calling XREADGROUP using the GROUP <group> "
                            "<consumer> option.");
      }
      after[i] = kMaxStreamId;
      continue;
    }
    auto id = parse_id_or_reply(text, 0, true, error);
    if (!id) return error;
    after[i] = *id;
  }
  std::vector<Reply> out;
  for (std::size_t i = 0; i < request->streams; ++i) {
    const std::string_view key = request->key(args, i);
    bool wrong_type = false;
    Stream* stream = find_stream(ctx.keys, key, wrong_type);
    if (stream == nullptr) continue;
    const bool history = group_read && after[i] != kMaxStreamId;
    const StreamId newest = stream->last_valid_id();
    bool serve = history;
    if (!history && !stream->entries.empty()) serve = newest > (group_read ? groups[i]->last_delivered : after[i]);
    if (!serve) continue;
    if (!group_read) {
      std::vector<Reply> entries;
      for (auto it = stream->entries.upper_bound(after[i]);
           it != stream->entries.end() && (request->count == 0 || static_cast<std::int64_t>(entries.size()) < request->count);
           ++it) {
        entries.push_back(entry_reply(it->first, it->second));
      }
      add_stream_reply(out, ctx, key, Reply::array(std::move(entries)));
      continue;
    }
    StreamConsumer& consumer = lookup_or_create_consumer(ctx, key, *groups[i], request->consumer);
    if (history) {
      const StreamId start = next_stream_id(after[i]).value_or(kMaxStreamId);
      add_stream_reply(out, ctx, key, deliver_history(ctx, *stream, *groups[i], consumer, start, request->count));
    } else {
      const StreamId start = *next_stream_id(groups[i]->last_delivered);
      add_stream_reply(out, ctx, key,
                       deliver_new_entries(ctx, *stream, *groups[i], request->consumer, consumer, start, request->count,
                                           request->noack));
    }
  }
  if (!out.empty()) return streams_reply(ctx, std::move(out));
  if (!request->block_ms) return Reply::null_array();
  // Inside EXEC (or without a transport for late replies) a blocking read answers as its timeout would.
  if (!ctx.node.can_block(ctx.session, ctx.in_script)) return Reply::null_array();
  std::optional<std::int64_t> deadline;
  if (*request->block_ms > 0) {
    // 7.0.15 adds the clock without a check: an overflowing deadline is in the past, so it times out at once.
    const bool overflows = *request->block_ms > std::numeric_limits<std::int64_t>::max() - ctx.keys.now_ms();
    deadline = overflows ? ctx.keys.now_ms() : ctx.keys.now_ms() + *request->block_ms;
  }
  ctx.node.block(ctx.session, parked, group_read ? try_blocked_xreadgroup : try_blocked_xread, deadline);
  return Reply::nil();  // not sent: the transport waits for the node's late reply
}

}  // namespace

Reply xread(CommandContext& ctx) { return read(ctx, false); }
Reply xreadgroup(CommandContext& ctx) { return read(ctx, true); }

}  // namespace lockcheck::mock::cmd
