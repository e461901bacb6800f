#pragma once
// DUMP and RESTORE in the differential test. RESTORE steps name their payload "@dump:<key>": redis-server's
// DUMP of that key at that moment, fetched on a side connection (the sequence's transaction, subscriptions
// and watched keys stay untouched), so both servers restore the same real bytes. DUMP replies compare by
// what they hold (type byte and value; a stream's nodes element by element, without its delivery and seen
// times, which are each server's clock); their bytes compare where redis-server's are the mock's writing of
// that value (no hash-seeded hashtable order, the same quicklist nodes), a stream's with its times zeroed.
#include <algorithm>
#include <limits>
#include <string>

#include "hiredis_client.hpp"
#include "redis/rdb/rdb_io.hpp"
#include "redis/rdb/rdb_object.hpp"

namespace lockcheck::mock::testing {

inline Command with_real_payload(const Command& command, lockcheck::testing::HiredisClient& side, int db) {
  if (command.size() < 4 || command[0] != "RESTORE" || !command[3].starts_with("@dump:")) return command;
  side.call({"SELECT", std::to_string(db)});
  const Reply dumped = side.call({"DUMP", command[3].substr(6)});
  Command out = command;
  out[3] = dumped.kind == Reply::Kind::bulk ? dumped.text : "not a payload";
  return out;
}

inline std::optional<RestoredValue> decode_dump(std::string_view payload) {
  constexpr std::int64_t kRoomy = std::numeric_limits<std::int64_t>::max();
  if (!dump_footer_is_valid(payload)) return std::nullopt;
  return restore_value(payload, EncodingLimits{kRoomy, kRoomy, kRoomy, kRoomy, kRoomy, {}});
}

inline std::string stream_summary(const Stream& stream) {
  std::string out;
  for (const auto& [master, node] : stream.nodes) {
    out += " node " + format_stream_id(master) + ":";
    for (const std::string& element : node.elements) out += " " + element;
  }
  out += " length " + std::to_string(stream.size()) + " last " + format_stream_id(stream.last_id) + " first " +
         format_stream_id(stream.first_id) + " max-deleted " + format_stream_id(stream.max_deleted_id) + " added " +
         std::to_string(stream.entries_added);
  for (const auto& [name, group] : stream.groups) {
    out += " group " + name + " " + format_stream_id(group.last_delivered) + " read " + std::to_string(group.entries_read);
    for (const auto& [id, pending] : group.pending) {
      out += " pending " + format_stream_id(id) + " " + pending.consumer + " x" + std::to_string(pending.delivery_count);
    }
    for (const auto& [consumer, state] : group.consumers) out += " consumer " + consumer + " owns " + std::to_string(state.pending.size());
  }
  return out;
}

// The payload's type byte and value; a hashtable hash's fields sorted (their order is Redis's dict's).
inline std::string dump_summary(const std::string& payload) {
  auto restored = decode_dump(payload);
  if (!restored) return "undecodable payload";
  std::string out = "type " + std::to_string(static_cast<unsigned char>(payload[0])) + ":";
  std::visit(
      [&](auto value) {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, std::string>) {
          out += " " + value;
        } else if constexpr (std::is_same_v<T, ZSet>) {
          for (const auto& [score, member] : value.by_score) out += " " + member + "=" + std::to_string(score);
        } else if constexpr (std::is_same_v<T, Hash>) {
          if (payload[0] == 4) std::sort(value.begin(), value.end());
          for (const auto& [field, v] : value) out += " " + field + "=" + v;
        } else if constexpr (std::is_same_v<T, List> || std::is_same_v<T, Set>) {
          for (const std::string& element : value) out += " " + element;
        } else if constexpr (std::is_same_v<T, StreamBox>) {
          out += stream_summary(value.get());
        }
      },
      restored->value);
  return out;
}

// Whether `payload` is byte for byte what the mock writes for the value it holds, in the encoding its type names.
inline bool written_as_the_mock_writes(const std::string& payload) {
  auto restored = decode_dump(payload);
  if (!restored) return false;
  Encoding encoding = restored->encoding;
  switch (static_cast<unsigned char>(payload[0])) {
    case 16: case 17: encoding = Encoding::listpack; break;
    case 11: encoding = Encoding::intset; break;
    case 5: encoding = Encoding::skiplist; break;
    case 2: case 4: return false;  // hashtable order
    default: break;
  }
  return dump_value(restored->value, encoding, -2) == payload;
}

// A stream payload as the mock writes it with every delivery and seen time 0; any other payload unchanged.
inline std::string without_times(const std::string& payload) {
  auto restored = decode_dump(payload);
  if (!restored || !std::holds_alternative<StreamBox>(restored->value)) return payload;
  Stream& stream = std::get<StreamBox>(restored->value).get();
  for (auto& [name, group] : stream.groups) {
    for (auto& [id, pending] : group.pending) pending.delivery_time_ms = 0;
    for (auto& [consumer, state] : group.consumers) state.seen_time_ms = 0;
  }
  return dump_value(restored->value, Encoding::stream, -2);
}

}  // namespace lockcheck::mock::testing
