#pragma once
// What the stream commands (commands_stream*.cpp) share: the key lookup, Redis 7.0.15's stream error texts,
// ID arguments, and entries as replies.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "redis/command_table/command.hpp"
#include "lockcheck/reply.hpp"
#include "redis/keyspace/stream.hpp"

namespace lockcheck::mock::stream_cmd {

inline constexpr std::string_view kInvalidId = "ERR Invalid stream ID specified as stream command argument";

// The stream at `key`: nullptr when absent; `wrong_type` set when the key holds another type.
Stream* find_stream(Keyspace& keys, std::string_view key, bool& wrong_type);

// An ID argument; on failure `error` holds Redis's reply.
std::optional<StreamId> parse_id_or_reply(std::string_view text, std::uint64_t missing_seq, bool strict, Reply& error);
// Strict IDs from args[from] to the end (XDEL, XACK): all parsed before any is used, as Redis does.
std::optional<std::vector<StreamId>> parse_ids_or_reply(const Command& args, std::size_t from, Reply& error);
// A range bound with the "(" exclusive prefix (XRANGE, XPENDING, XAUTOCLAIM): start moves up, end down.
std::optional<StreamId> parse_range_start(std::string_view text, Reply& error);
std::optional<StreamId> parse_range_end(std::string_view text, Reply& error);

inline Reply id_reply(StreamId id) { return Reply::bulk(format_stream_id(id)); }
// [id, [field, value, ...]]
Reply entry_reply(StreamId id, const std::vector<std::string>& fields);
// The entry `id` or, when deleted, [id, nil-array] (history reads of a deleted pending entry).
Reply entry_or_tombstone(const Stream& stream, StreamId id);

// Announces `event` in the stream class, as the acting command (xgroup-create, xtrim...).
void announce(CommandContext& ctx, std::string_view key, std::string_view event);

std::string nogroup_key_or_group(std::string_view key, std::string_view group);

}  // namespace lockcheck::mock::stream_cmd
