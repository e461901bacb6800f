#include "redis/rdb/rdb_stream.hpp"

#include "redis/keyspace/packed_encodings.hpp"
#include "redis/util/byte_order.hpp"

namespace lockcheck::mock {
namespace {

constexpr std::size_t kRawIdBytes = 16;

std::string raw_id(StreamId id) {
  std::string out;
  put_big_endian(out, id.ms, 8);
  put_big_endian(out, id.seq, 8);
  return out;
}

void put_id(std::string& out, StreamId id) {
  put_rdb_length(out, id.ms);
  put_rdb_length(out, id.seq);
}

void put_group(std::string& out, const std::string& name, const ConsumerGroup& group) {
  put_rdb_string(out, name);
  put_id(out, group.last_delivered);
  put_rdb_length(out, static_cast<std::uint64_t>(group.entries_read));  // -1 (unknown) as 2^64 - 1, as Redis does
  put_rdb_length(out, group.pending.size());
  for (const auto& [id, pending] : group.pending) {
    out += raw_id(id);
    put_little_endian(out, static_cast<std::uint64_t>(pending.delivery_time_ms), 8);
    put_rdb_length(out, static_cast<std::uint64_t>(pending.delivery_count));
  }
  put_rdb_length(out, group.consumers.size());
  for (const auto& [consumer_name, consumer] : group.consumers) {
    put_rdb_string(out, consumer_name);
    put_little_endian(out, static_cast<std::uint64_t>(consumer.seen_time_ms), 8);
    put_rdb_length(out, consumer.pending.size());
    for (StreamId id : consumer.pending) out += raw_id(id);
  }
}

std::optional<StreamId> read_raw_id(RdbReader& reader) {
  auto ms = reader.big_endian(8);
  if (!ms) return std::nullopt;
  auto seq = reader.big_endian(8);
  if (!seq) return std::nullopt;
  return StreamId{*ms, *seq};
}

std::optional<StreamId> read_id(RdbReader& reader) {
  auto ms = reader.plain_length();
  if (!ms) return std::nullopt;
  auto seq = reader.plain_length();
  if (!seq) return std::nullopt;
  return StreamId{*ms, *seq};
}

// The nodes and their live entries. Every node must hold an entry, and its entries lie between its master ID
// and the next node's (the mock finds an entry's node by its ID, where Redis trusts the payload).
bool read_nodes(RdbReader& reader, Stream& stream) {
  auto count = reader.plain_length();
  if (!count || *count > reader.left()) return false;  // each node takes bytes
  for (std::uint64_t i = 0; i < *count; ++i) {
    auto key = reader.string();
    if (!key || key->size() != kRawIdBytes) return false;
    RdbReader key_reader(*key);
    const StreamId master = *read_raw_id(key_reader);
    auto blob = reader.string();
    if (!blob) return false;
    auto elements = decode_listpack(*blob);
    if (!elements || elements->empty()) return false;
    StreamNode::Entries live;
    auto node = StreamNode::from_elements(master, std::move(*elements), live);
    if (!node || stream.nodes.contains(master)) return false;
    if (node->flags_at.front().first < master) return false;
    for (auto& [id, fields] : live) {
      if (!stream.entries.emplace(id, std::move(fields)).second) return false;
    }
    stream.nodes.emplace(master, std::move(*node));
  }
  StreamId previous_last{};
  bool first = true;
  for (const auto& [master, node] : stream.nodes) {
    if (!first && master <= previous_last) return false;
    previous_last = node.last;
    first = false;
  }
  return true;
}

bool read_group(RdbReader& reader, Stream& stream, bool legacy) {
  auto name = reader.string();
  if (!name) return false;
  auto last = read_id(reader);
  if (!last) return false;
  std::int64_t entries_read = kEntriesReadUnknown;
  if (legacy) {
    entries_read = estimate_entries_read(stream, *last).value_or(kEntriesReadUnknown);
  } else {
    auto read = reader.plain_length();
    if (!read) return false;
    entries_read = static_cast<std::int64_t>(*read);
  }
  auto [slot, created] = stream.groups.try_emplace(*name);
  if (!created) return false;  // "Duplicated consumer group name"
  ConsumerGroup& group = slot->second;
  group.last_delivered = *last;
  group.entries_read = entries_read;
  auto pending_count = reader.plain_length();
  if (!pending_count || *pending_count > reader.left()) return false;
  for (std::uint64_t i = 0; i < *pending_count; ++i) {
    auto id = read_raw_id(reader);
    if (!id) return false;
    auto delivered_ms = reader.little_endian_signed(8);
    if (!delivered_ms) return false;
    auto deliveries = reader.plain_length();
    if (!deliveries) return false;
    PendingEntry entry{"", *delivered_ms, static_cast<std::int64_t>(*deliveries)};
    if (!group.pending.emplace(*id, std::move(entry)).second) return false;
  }
  auto consumer_count = reader.plain_length();
  if (!consumer_count || *consumer_count > reader.left()) return false;
  for (std::uint64_t i = 0; i < *consumer_count; ++i) {
    auto consumer_name = reader.string();
    if (!consumer_name) return false;
    auto [consumer, new_consumer] = group.consumers.try_emplace(*consumer_name);
    if (!new_consumer) return false;  // "Duplicate stream consumer detected"
    auto seen_ms = reader.little_endian_signed(8);
    if (!seen_ms) return false;
    consumer->second.seen_time_ms = *seen_ms;
    auto owned = reader.plain_length();
    if (!owned || *owned > reader.left()) return false;
    for (std::uint64_t j = 0; j < *owned; ++j) {
      auto id = read_raw_id(reader);
      if (!id) return false;
      auto pending = group.pending.find(*id);
      // Not in the group's PEL: "Consumer entry not found"; already owned: the mock holds one owner per entry.
      if (pending == group.pending.end() || !pending->second.consumer.empty()) return false;
      pending->second.consumer = *consumer_name;
      consumer->second.pending.insert(*id);
    }
  }
  for (const auto& [id, pending] : group.pending) {
    if (pending.consumer.empty()) return false;  // an entry no consumer owns: the deep check's refusal
  }
  return true;
}

}  // namespace

void put_stream(std::string& out, const Stream& stream) {
  out.push_back(static_cast<char>(kRdbTypeStreamListpacks2));
  put_rdb_length(out, stream.nodes.size());
  for (const auto& [master, node] : stream.nodes) {
    put_rdb_string(out, raw_id(master));
    const std::vector<std::string_view> elements(node.elements.begin(), node.elements.end());
    put_rdb_string(out, encode_listpack(elements));
  }
  put_rdb_length(out, stream.entries.size());
  put_id(out, stream.last_id);
  put_id(out, stream.first_id);
  put_id(out, stream.max_deleted_id);
  put_rdb_length(out, stream.entries_added);
  put_rdb_length(out, stream.groups.size());
  for (const auto& [name, group] : stream.groups) put_group(out, name, group);
}

std::optional<Stream> read_stream(RdbReader& reader, unsigned char type) {
  const bool legacy = type == kRdbTypeStreamListpacks;
  Stream stream;
  if (!read_nodes(reader, stream)) return std::nullopt;
  auto length = reader.plain_length();
  auto last = read_id(reader);
  if (!length || !last || *length != stream.entries.size()) return std::nullopt;
  stream.last_id = *last;
  if (legacy) {
    // rdbLoadObject: entries-added is the length, no tombstone is known, the first ID is the first live
    // entry's (streamGetEdgeID: the largest ID when there is none).
    stream.entries_added = *length;
    stream.first_id = stream.entries.empty() ? kMaxStreamId : stream.entries.begin()->first;
  } else {
    auto first = read_id(reader);
    auto max_deleted = read_id(reader);
    if (!first || !max_deleted) return std::nullopt;
    auto added = reader.plain_length();
    if (!added) return std::nullopt;
    stream.first_id = *first;
    stream.max_deleted_id = *max_deleted;
    stream.entries_added = *added;
  }
  auto group_count = reader.plain_length();
  if (!group_count || *group_count > reader.left()) return std::nullopt;
  for (std::uint64_t i = 0; i < *group_count; ++i) {
    if (!read_group(reader, stream, legacy)) return std::nullopt;
  }
  return stream;
}

}  // namespace lockcheck::mock
