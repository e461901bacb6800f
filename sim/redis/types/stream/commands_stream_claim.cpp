// XCLAIM and XAUTOCLAIM: moving pending entries to another consumer, with delivery times on the node clock.
// A claimed ID whose entry was deleted leaves the pending list (and XAUTOCLAIM lists it, 7.0's third element).
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

// The group named by args[2] of the stream at args[1], or the reply that refuses the command.
ConsumerGroup* find_group_or_reply(CommandContext& ctx, Stream*& stream, Reply& error) {
  bool wrong_type = false;
  stream = find_stream(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return error = err::wrong_type(), nullptr;
  if (stream != nullptr) {
    auto found = stream->groups.find(ctx.args[2]);
    if (found != stream->groups.end()) return &found->second;
  }
  error = Reply::error(nogroup_key_or_group(ctx.args[1], ctx.args[2]));
  return nullptr;
}

std::optional<std::int64_t> parse_integer_or_reply(const std::string& text, std::string_view message, Reply& error) {
  auto value = parse_int64(text);
  if (!value) error = Reply::error("ERR " + std::string(message));
  return value;
}

// The claiming consumer, looked up (its seen-time refreshed) or created once per command, on first use.
class Claimer {
 public:
  Claimer(CommandContext& ctx, ConsumerGroup& group) : ctx_(ctx), group_(group) {}
  StreamConsumer& get() {
    if (consumer_ != nullptr) return *consumer_;
    auto [it, created] = group_.consumers.try_emplace(ctx_.args[3]);
    it->second.seen_time_ms = ctx_.keys.now_ms();
    if (created) announce(ctx_, ctx_.args[1], "xgroup-createconsumer");
    consumer_ = &it->second;
    return *consumer_;
  }
  // Hands the pending entry `id` to the claimer.
  void take(StreamId id, PendingEntry& pending) {
    StreamConsumer& consumer = get();
    if (pending.consumer != ctx_.args[3]) {
      auto previous = group_.consumers.find(pending.consumer);
      if (previous != group_.consumers.end()) previous->second.pending.erase(id);
      pending.consumer = ctx_.args[3];
    }
    consumer.pending.insert(id);
  }

 private:
  CommandContext& ctx_;
  ConsumerGroup& group_;
  StreamConsumer* consumer_ = nullptr;
};

void drop_pending(ConsumerGroup& group, StreamId id) {
  auto pending = group.pending.find(id);
  if (pending == group.pending.end()) return;
  auto owner = group.consumers.find(pending->second.consumer);
  if (owner != group.consumers.end()) owner->second.pending.erase(id);
  group.pending.erase(pending);
}

}  // namespace

Reply xclaim(CommandContext& ctx) {
  const Command& args = ctx.args;
  Stream* stream = nullptr;
  Reply error;
  ConsumerGroup* group = find_group_or_reply(ctx, stream, error);
  if (group == nullptr) return error;
  auto min_idle = parse_integer_or_reply(args[4], "Invalid min-idle-time argument for XCLAIM", error);
  if (!min_idle) return error;
  const std::int64_t min_idle_ms = *min_idle < 0 ? 0 : *min_idle;
  std::vector<StreamId> ids;
  std::size_t j = 5;
  for (; j < args.size(); ++j) {
    auto id = parse_stream_id(args[j], 0, true);
    if (!id) break;
    ids.push_back(*id);
  }
  const std::int64_t now = ctx.keys.now_ms();
  std::int64_t delivery_time = -1;
  std::int64_t retry_count = -1;
  bool force = false, justid = false;
  StreamId last_id;
  for (; j < args.size(); ++j) {
    const bool more = j + 1 < args.size();
    const std::string& opt = args[j];
    if (iequals(opt, "force")) {
      force = true;
    } else if (iequals(opt, "justid")) {
      justid = true;
    } else if (iequals(opt, "idle") && more) {
      auto idle = parse_integer_or_reply(args[++j], "Invalid IDLE option argument for XCLAIM", error);
      if (!idle) return error;
      delivery_time = now - *idle;
    } else if (iequals(opt, "time") && more) {
      auto time = parse_integer_or_reply(args[++j], "Invalid TIME option argument for XCLAIM", error);
      if (!time) return error;
      delivery_time = *time;
    } else if (iequals(opt, "retrycount") && more) {
      auto retries = parse_integer_or_reply(args[++j], "Invalid RETRYCOUNT option argument for XCLAIM", error);
      if (!retries) return error;
      retry_count = *retries;
    } else if (iequals(opt, "lastid") && more) {
      auto parsed = parse_id_or_reply(args[++j], 0, true, error);
      if (!parsed) return error;
      last_id = *parsed;
    } else {
      return Reply::error("ERR Unrecognized XCLAIM option '" + opt + "'");
    }
  }
  if (last_id > group->last_delivered) group->last_delivered = last_id;
  if (delivery_time == -1 || delivery_time < 0 || delivery_time > now) delivery_time = now;
  Claimer claimer(ctx, *group);
  std::vector<Reply> out;
  for (StreamId id : ids) {
    auto pending = group->pending.find(id);
    if (stream->entries.count(id) == 0) {
      drop_pending(*group, id);
      continue;
    }
    if (force && pending == group->pending.end()) {
      // A forced claim of an entry nobody holds: a pending entry with no consumer yet, delivered zero times.
      pending = group->pending.emplace(id, PendingEntry{std::string(), now, 1}).first;
    }
    if (pending == group->pending.end()) continue;
    if (!pending->second.consumer.empty() && min_idle_ms != 0 && now - pending->second.delivery_time_ms < min_idle_ms) {
      continue;
    }
    claimer.take(id, pending->second);
    pending->second.delivery_time_ms = delivery_time;
    if (retry_count >= 0) pending->second.delivery_count = retry_count;
    else if (!justid) ++pending->second.delivery_count;
    out.push_back(justid ? id_reply(id) : entry_reply(id, stream->entries.at(id)));
  }
  return Reply::array(std::move(out));
}

Reply xautoclaim(CommandContext& ctx) {
  const Command& args = ctx.args;
  Reply error;
  auto min_idle = parse_integer_or_reply(args[4], "Invalid min-idle-time argument for XAUTOCLAIM", error);
  if (!min_idle) return error;
  const std::int64_t min_idle_ms = *min_idle < 0 ? 0 : *min_idle;
  auto start = parse_range_start(args[5], error);
  if (!start) return error;
  constexpr std::int64_t kAttemptsFactor = 10;
  constexpr std::int64_t kMaxCount = std::numeric_limits<std::int64_t>::max() / 16;  // LONG_MAX / sizeof(streamID)
  std::int64_t count = 100;
  bool justid = false;
  for (std::size_t j = 6; j < args.size(); ++j) {
    const bool more = j + 1 < args.size();
    if (iequals(args[j], "count") && more) {
      auto parsed = parse_int64(args[j + 1]);
      if (!parsed) return err::not_integer();
      if (*parsed < 1 || *parsed > kMaxCount) return Reply::error("ERR COUNT must be > 0");
      count = *parsed;
      ++j;
    } else if (iequals(args[j], "justid")) {
      justid = true;
    } else {
      return err::syntax();
    }
  }
  Stream* stream = nullptr;
  ConsumerGroup* group = find_group_or_reply(ctx, stream, error);
  if (group == nullptr) return error;
  const std::int64_t now = ctx.keys.now_ms();
  Claimer claimer(ctx, *group);
  std::vector<Reply> claimed, deleted;
  std::int64_t attempts = count * kAttemptsFactor;
  auto it = group->pending.lower_bound(*start);
  // Bounded by COUNT * 10 attempts, as 7.0.15 bounds its scan.
  while (attempts-- > 0 && count > 0 && it != group->pending.end()) {
    const StreamId id = it->first;
    if (stream->entries.count(id) == 0) {
      ++it;
      drop_pending(*group, id);
      deleted.push_back(id_reply(id));
      --count;
      continue;
    }
    if (min_idle_ms != 0 && now - it->second.delivery_time_ms < min_idle_ms) {
      ++it;
      continue;
    }
    claimer.take(id, it->second);
    it->second.delivery_time_ms = now;
    if (!justid) ++it->second.delivery_count;
    claimed.push_back(justid ? id_reply(id) : entry_reply(id, stream->entries.at(id)));
    --count;
    ++it;
  }
  const StreamId next = it == group->pending.end() ? StreamId{} : it->first;
  return Reply::array({id_reply(next), Reply::array(std::move(claimed)), Reply::array(std::move(deleted))});
}

}  // namespace lockcheck::mock::cmd
