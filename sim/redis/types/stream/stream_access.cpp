#include "redis/types/stream/stream_access.hpp"

#include "redis/server/blocking_pop.hpp"
#include "redis/types/typed_lookup.hpp"

namespace lockcheck::mock::stream_cmd {

Stream* find_stream(Keyspace& keys, std::string_view key, bool& wrong_type) {
  StreamBox* box = find_typed<StreamBox>(keys, key, wrong_type);
  return box == nullptr ? nullptr : &box->get();
}

std::optional<StreamId> parse_id_or_reply(std::string_view text, std::uint64_t missing_seq, bool strict, Reply& error) {
  auto id = parse_stream_id(text, missing_seq, strict);
  if (!id) error = Reply::error(std::string(kInvalidId));
  return id;
}

std::optional<std::vector<StreamId>> parse_ids_or_reply(const Command& args, std::size_t from, Reply& error) {
  std::vector<StreamId> ids;
  for (std::size_t j = from; j < args.size(); ++j) {
    auto id = parse_id_or_reply(args[j], 0, true, error);
    if (!id) return std::nullopt;
    ids.push_back(*id);
  }
  return ids;
}

namespace {

// streamParseIntervalIDOrReply: "(id" is exclusive and strict (no "(-"); then the bound moves by one.
std::optional<StreamId> parse_bound(std::string_view text, std::uint64_t missing_seq, bool is_start, Reply& error) {
  const bool exclusive = text.size() > 1 && text[0] == '(';
  auto id = parse_id_or_reply(exclusive ? text.substr(1) : text, missing_seq, exclusive, error);
  if (!id || !exclusive) return id;
  auto moved = is_start ? next_stream_id(*id) : previous_stream_id(*id);
  if (!moved) error = Reply::error(is_start ? "ERR invalid start ID for the interval" : "ERR invalid end ID for the interval");
  return moved;
}

}  // namespace

std::optional<StreamId> parse_range_start(std::string_view text, Reply& error) { return parse_bound(text, 0, true, error); }
std::optional<StreamId> parse_range_end(std::string_view text, Reply& error) {
  return parse_bound(text, UINT64_MAX, false, error);
}

Reply entry_reply(StreamId id, const std::vector<std::string>& fields) {
  std::vector<Reply> flat;
  flat.reserve(fields.size());
  for (const std::string& each : fields) flat.push_back(Reply::bulk(each));
  return Reply::array({id_reply(id), Reply::array(std::move(flat))});
}

Reply entry_or_tombstone(const Stream& stream, StreamId id) {
  auto it = stream.entries.find(id);
  if (it == stream.entries.end()) return Reply::array({id_reply(id), Reply::null_array()});
  return entry_reply(id, it->second);
}

void announce(CommandContext& ctx, std::string_view key, std::string_view event) {
  AnnouncedAs as(ctx.keys, event);
  ctx.keys.announced(key);
}

std::string nogroup_key_or_group(std::string_view key, std::string_view group) {
  return "NOGROUP No such key '" + std::string(key) + "' or consumer group '" + std::string(group) + "'";
}

}  // namespace lockcheck::mock::stream_cmd
