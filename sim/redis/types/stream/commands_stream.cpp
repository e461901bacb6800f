// XADD, XLEN, XRANGE, XREVRANGE, XDEL, XTRIM, XSETID: the stream's entries, with 7.0.15's order of checks.
#include "redis/server/blocking_pop.hpp"
#include "redis/types/stream/stream_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/server/node.hpp"
#include "redis/util/numbers.hpp"
#include "redis/types/stream/stream_access.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

using namespace stream_cmd;

struct AddOrTrim {
  StreamTrim trim;
  bool no_mkstream = false;
  bool id_given = false;
  bool seq_given = true;
  bool limit_given = false;  // LIMIT 0 with ~ is unbounded; no LIMIT with ~ takes the default bound
  StreamId id;
  std::size_t id_position = 0;  // XADD: the ID's argument index (fields follow it)
};

// streamParseAddOrTrimArgsOrReply: the options up to XADD's ID (or the end for XTRIM).
std::optional<AddOrTrim> parse_add_or_trim(const Command& args, bool xadd, Reply& error) {
  AddOrTrim out;
  StreamTrim& trim = out.trim;
  bool& limit_given = out.limit_given;
  std::size_t i = 2;
  for (; i < args.size(); ++i) {
    const std::size_t more = args.size() - 1 - i;
    const std::string& opt = args[i];
    if (xadd && opt == "*") break;
    const bool is_maxlen = iequals(opt, "maxlen");
    if ((is_maxlen || iequals(opt, "minid")) && more > 0) {
      if (trim.strategy != StreamTrim::Strategy::none) {
        error = Reply::error("ERR syntax error, MAXLEN and MINID options at the same time are not compatible");
        return std::nullopt;
      }
      trim.approx = false;
      if (more >= 2 && (args[i + 1] == "~" || args[i + 1] == "=")) {
        trim.approx = args[i + 1] == "~";
        ++i;
      }
      if (is_maxlen) {
        auto maxlen = parse_int64(args[i + 1]);
        if (!maxlen) return error = err::not_integer(), std::nullopt;
        if (*maxlen < 0) return error = Reply::error("ERR The MAXLEN argument must be >= 0."), std::nullopt;
        trim.maxlen = *maxlen;
        trim.strategy = StreamTrim::Strategy::maxlen;
      } else {
        auto minid = parse_id_or_reply(args[i + 1], 0, true, error);
        if (!minid) return std::nullopt;
        trim.minid = *minid;
        trim.strategy = StreamTrim::Strategy::minid;
      }
      ++i;
    } else if (iequals(opt, "limit") && more > 0) {
      auto limit = parse_int64(args[i + 1]);
      if (!limit) return error = err::not_integer(), std::nullopt;
      if (*limit < 0) return error = Reply::error("ERR The LIMIT argument must be >= 0."), std::nullopt;
      trim.limit = *limit;
      limit_given = true;
      ++i;
    } else if (xadd && iequals(opt, "nomkstream")) {
      out.no_mkstream = true;
    } else if (xadd) {
      auto id = parse_stream_id(opt, 0, true, &out.seq_given);
      if (!id) return error = Reply::error(std::string(kInvalidId)), std::nullopt;
      out.id = *id;
      out.id_given = true;
      break;
    } else {
      return error = err::syntax(), std::nullopt;
    }
  }
  out.id_position = i;
  if (trim.limit != 0 && trim.strategy == StreamTrim::Strategy::none) {
    return error = Reply::error("ERR syntax error, LIMIT cannot be used without specifying a trimming strategy"), std::nullopt;
  }
  if (!xadd && trim.strategy == StreamTrim::Strategy::none) {
    return error = Reply::error("ERR syntax error, XTRIM must be called with a trimming strategy"), std::nullopt;
  }
  if (limit_given && !trim.approx) {
    return error = Reply::error("ERR syntax error, LIMIT cannot be used without the special ~ option"), std::nullopt;
  }
  return out;
}

// The default work bound of approximate trimming: 100 nodes, clamped as 7.0.15 clamps it.
std::int64_t default_approx_limit(CommandContext& ctx) {
  const std::int64_t per_node = ctx.node.encoding_limits().stream_node.max_entries;
  const std::int64_t limit = per_node > 1'000'000 / 100 ? 1'000'000 : 100 * per_node;
  return limit <= 0 ? 10'000 : limit;
}

// The ID XADD appends under (streamAppendItem / streamNextID), or nullopt when it is not above last_id.
std::optional<StreamId> new_entry_id(const Stream& stream, const AddOrTrim& parsed, std::int64_t now_ms) {
  const StreamId last = stream.last_id;
  StreamId id;
  if (parsed.id_given && parsed.seq_given) {
    id = parsed.id;
  } else if (parsed.id_given) {
    if (last.ms == parsed.id.ms) {
      if (last.seq == UINT64_MAX) return std::nullopt;
      id = StreamId{last.ms, last.seq + 1};
    } else {
      id = parsed.id;
    }
  } else {
    const auto ms = static_cast<std::uint64_t>(now_ms);
    if (ms > last.ms) {
      id = StreamId{ms, 0};
    } else {
      auto next = next_stream_id(last);
      if (!next) return std::nullopt;
      id = *next;
    }
  }
  if (id <= last) return std::nullopt;
  return id;
}

Reply range(CommandContext& ctx, bool reverse) {
  const Command& args = ctx.args;
  Reply error;
  auto start = parse_range_start(args[reverse ? 3 : 2], error);
  if (!start) return error;
  auto end = parse_range_end(args[reverse ? 2 : 3], error);
  if (!end) return error;
  std::int64_t count = -1;
  for (std::size_t j = 4; j < args.size(); ++j) {
    if (!iequals(args[j], "count") || j + 1 >= args.size()) return err::syntax();
    auto parsed = parse_int64(args[++j]);
    if (!parsed) return err::not_integer();
    count = *parsed < 0 ? 0 : *parsed;
  }
  bool wrong_type = false;
  Stream* stream = find_stream(ctx.keys, args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  if (stream == nullptr) return Reply::array({});
  if (count == 0) return Reply::null_array();
  std::vector<Reply> out;
  if (*start > *end) return Reply::array({});
  auto first = stream->entries.lower_bound(*start);
  auto last = stream->entries.upper_bound(*end);
  // Bounded by the entries in [start, end] and by COUNT.
  if (!reverse) {
    for (auto it = first; it != last && (count < 0 || static_cast<std::int64_t>(out.size()) < count); ++it) {
      out.push_back(entry_reply(it->first, it->second));
    }
  } else {
    for (auto it = last; it != first && (count < 0 || static_cast<std::int64_t>(out.size()) < count);) {
      --it;
      out.push_back(entry_reply(it->first, it->second));
    }
  }
  return Reply::array(std::move(out));
}

}  // namespace

Reply xadd(CommandContext& ctx) {
  const Command& args = ctx.args;
  Reply error;
  auto parsed = parse_add_or_trim(args, true, error);
  if (!parsed) return error;
  const std::size_t field_position = parsed->id_position + 1;
  if (field_position > args.size() || (args.size() - field_position) < 2 || (args.size() - field_position) % 2 == 1) {
    return err::arity("xadd");
  }
  if (parsed->id_given && parsed->seq_given && parsed->id == StreamId{}) {
    return Reply::error("ERR The ID specified in XADD must be greater than 0-0");
  }
  if (parsed->trim.approx && !parsed->limit_given) parsed->trim.limit = default_approx_limit(ctx);
  bool wrong_type = false;
  Stream* stream = find_stream(ctx.keys, args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  const bool created = stream == nullptr;
  if (created) {
    if (parsed->no_mkstream) return Reply::nil();
    // The new key announces "new" and then "xadd" (the acting command) itself.
    stream = &std::get<StreamBox>(ctx.keys.add(args[1], StreamBox{}).value).get();
  } else if (stream->last_id == kMaxStreamId) {
    return Reply::error("ERR The stream has exhausted the last possible ID, unable to add more items");
  }
  auto id = new_entry_id(*stream, *parsed, ctx.keys.now_ms());
  if (!id) return Reply::error("ERR The ID specified in XADD is equal or smaller than the target stream top item");
  stream->append(*id, Command(args.begin() + static_cast<std::ptrdiff_t>(field_position), args.end()),
                 ctx.node.encoding_limits().stream_node);
  if (!created) ctx.keys.modified(args[1]);
  if (trim_stream(*stream, parsed->trim) > 0) {
    AnnouncedAs as(ctx.keys, "xtrim");
    ctx.keys.modified(args[1]);
  }
  return id_reply(*id);
}

Reply xlen(CommandContext& ctx) {
  bool wrong_type = false;
  Stream* stream = find_stream(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  return Reply::integer_reply(stream == nullptr ? 0 : static_cast<std::int64_t>(stream->size()));
}

Reply xrange(CommandContext& ctx) { return range(ctx, false); }
Reply xrevrange(CommandContext& ctx) { return range(ctx, true); }

Reply xdel(CommandContext& ctx) {
  const Command& args = ctx.args;
  bool wrong_type = false;
  Stream* stream = find_stream(ctx.keys, args[1], wrong_type);
  if (stream == nullptr) return wrong_type ? err::wrong_type() : Reply::integer_reply(0);
  Reply error;
  auto ids = parse_ids_or_reply(args, 2, error);
  if (!ids) return error;
  std::int64_t deleted = 0;
  for (StreamId id : *ids) {
    if (!stream->erase(id)) continue;
    if (id > stream->max_deleted_id) stream->max_deleted_id = id;
    ++deleted;
  }
  if (deleted > 0) {
    stream->refresh_first_id();
    ctx.keys.modified(args[1]);
  }
  return Reply::integer_reply(deleted);
}

Reply xtrim(CommandContext& ctx) {
  Reply error;
  auto parsed = parse_add_or_trim(ctx.args, false, error);
  if (!parsed) return error;
  if (parsed->trim.approx && !parsed->limit_given) parsed->trim.limit = default_approx_limit(ctx);
  bool wrong_type = false;
  Stream* stream = find_stream(ctx.keys, ctx.args[1], wrong_type);
  if (stream == nullptr) return wrong_type ? err::wrong_type() : Reply::integer_reply(0);
  const std::int64_t deleted = trim_stream(*stream, parsed->trim);
  if (deleted > 0) ctx.keys.modified(ctx.args[1]);
  return Reply::integer_reply(deleted);
}

Reply xsetid(CommandContext& ctx) {
  const Command& args = ctx.args;
  Reply error;
  auto id = parse_id_or_reply(args[2], 0, true, error);
  if (!id) return error;
  std::int64_t entries_added = -1;
  StreamId max_deleted;
  for (std::size_t i = 3; i < args.size(); i += 2) {
    const bool more = i + 1 < args.size();
    if (iequals(args[i], "entriesadded") && more) {
      auto parsed = parse_int64(args[i + 1]);
      if (!parsed) return err::not_integer();
      if (*parsed < 0) return Reply::error("ERR entries_added must be positive");
      entries_added = *parsed;
    } else if (iequals(args[i], "maxdeletedid") && more) {
      auto parsed = parse_id_or_reply(args[i + 1], 0, true, error);
      if (!parsed) return error;
      if (*id < *parsed) return Reply::error("ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id");
      max_deleted = *parsed;
    } else {
      return err::syntax();
    }
  }
  bool wrong_type = false;
  Stream* stream = find_stream(ctx.keys, args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  if (stream == nullptr) return Reply::error("ERR no such key");
  if (!stream->entries.empty()) {
    if (*id < stream->last_valid_id()) {
      return Reply::error("ERR The ID specified in XSETID is smaller than the target stream top item");
    }
    if (entries_added != -1 && static_cast<std::int64_t>(stream->size()) > entries_added) {
      return Reply::error("ERR The entries_added specified in XSETID is smaller than the target stream length");
    }
  }
  stream->last_id = *id;
  if (entries_added != -1) stream->entries_added = static_cast<std::uint64_t>(entries_added);
  if (max_deleted != StreamId{}) stream->max_deleted_id = max_deleted;
  announce(ctx, args[1], "xsetid");
  return Reply::ok();
}

}  // namespace lockcheck::mock::cmd
