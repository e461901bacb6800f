// A stream node's listpack, element for element (stream.hpp): what XADD appends, XDEL and exact trimming flag,
// and what DUMP writes and RESTORE reads (rdb_stream.cpp).
#include <algorithm>

#include "redis/util/numbers.hpp"
#include "redis/keyspace/packed_encodings.hpp"
#include "redis/keyspace/stream.hpp"

namespace lockcheck::mock {
namespace {

constexpr std::int64_t kFlagDeleted = 1;     // STREAM_ITEM_FLAG_DELETED
constexpr std::int64_t kFlagSameFields = 2;  // STREAM_ITEM_FLAG_SAMEFIELDS
constexpr std::int64_t kEmptyListpackBytes = 7;  // header and terminator
constexpr std::size_t kLiveAt = 0;
constexpr std::size_t kDeletedAt = 1;
constexpr std::size_t kFieldCountAt = 2;
constexpr std::size_t kFixedEntryElements = 3;  // flags, ms delta, seq delta

std::int64_t element_bytes(const std::string& element) { return static_cast<std::int64_t>(listpack_entry_bytes(element)); }

}  // namespace

StreamNode StreamNode::open(const std::vector<std::string>& fields) {
  StreamNode node;
  node.bytes = kEmptyListpackBytes;
  auto push = [&node](std::string element) {
    node.bytes += element_bytes(element);
    node.elements.push_back(std::move(element));
  };
  push("0");
  push("0");
  push(std::to_string(fields.size() / 2));
  for (std::size_t i = 0; i < fields.size(); i += 2) push(fields[i]);
  push("0");
  return node;
}

void StreamNode::add(StreamId master, StreamId id, const std::vector<std::string>& fields) {
  auto replace = [this](std::size_t at, std::string element) {
    bytes += element_bytes(element) - element_bytes(elements[at]);
    elements[at] = std::move(element);
  };
  auto push = [this](std::string element) {
    bytes += element_bytes(element);
    elements.push_back(std::move(element));
  };
  replace(kLiveAt, std::to_string(live + 1));
  const std::size_t field_count = fields.size() / 2;
  bool same_fields = parse_int64(elements[kFieldCountAt]) == static_cast<std::int64_t>(field_count);
  for (std::size_t i = 0; same_fields && i < field_count; ++i) same_fields = elements[kFieldCountAt + 1 + i] == fields[2 * i];
  flags_at.emplace_back(id, elements.size());
  push(std::to_string(same_fields ? kFlagSameFields : 0));
  push(std::to_string(static_cast<std::int64_t>(id.ms - master.ms)));
  push(std::to_string(static_cast<std::int64_t>(id.seq - master.seq)));
  if (!same_fields) push(std::to_string(field_count));
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i % 2 == 0 && same_fields) continue;
    push(fields[i]);
  }
  push(std::to_string(static_cast<std::int64_t>(kFixedEntryElements + (same_fields ? field_count : 2 * field_count + 1))));
  ++live;
  ++appended;
  last = id;
}

bool StreamNode::mark_deleted(StreamId id) {
  auto at = std::lower_bound(flags_at.begin(), flags_at.end(), id, [](const auto& each, StreamId wanted) { return each.first < wanted; });
  if (at == flags_at.end() || at->first != id) return false;
  std::string& flags_text = elements[at->second];
  const std::int64_t flags = parse_int64(flags_text).value_or(0);
  if ((flags & kFlagDeleted) != 0) return false;
  auto replace = [this](std::size_t index, std::string element) {
    bytes += element_bytes(element) - element_bytes(elements[index]);
    elements[index] = std::move(element);
  };
  replace(at->second, std::to_string(flags | kFlagDeleted));
  --live;
  replace(kLiveAt, std::to_string(live));
  replace(kDeletedAt, std::to_string(parse_int64(elements[kDeletedAt]).value_or(0) + 1));
  return true;
}

std::optional<StreamNode> StreamNode::from_elements(StreamId master, std::vector<std::string> elements, Entries& live_out) {
  StreamNode node;
  std::size_t at = 0;
  auto integer = [&]() -> std::optional<std::int64_t> {
    if (at >= elements.size()) return std::nullopt;
    return parse_int64(elements[at++]);
  };
  auto count = [&]() -> std::optional<std::size_t> {
    auto value = integer();
    if (!value || *value < 0 || static_cast<std::uint64_t>(*value) > elements.size()) return std::nullopt;
    return static_cast<std::size_t>(*value);
  };
  const auto live_count = integer();
  const auto deleted_count = integer();
  const auto master_field_count = count();
  if (!live_count || !deleted_count || !master_field_count || elements.size() - at < *master_field_count + 1) return std::nullopt;
  const std::size_t master_fields_at = at;
  at += *master_field_count;
  if (integer() != 0) return std::nullopt;
  std::int64_t live_seen = 0;
  std::int64_t deleted_seen = 0;
  // Each entry consumes at least four elements.
  while (at < elements.size()) {
    const std::size_t flags_index = at;
    const auto flags = integer();
    const auto ms_delta = integer();
    const auto seq_delta = integer();
    if (!flags || !ms_delta || !seq_delta) return std::nullopt;
    const bool same_fields = (*flags & kFlagSameFields) != 0;
    std::size_t field_count = *master_field_count;
    if (!same_fields) {
      auto own = count();
      if (!own) return std::nullopt;
      field_count = *own;
    }
    const std::size_t stored = same_fields ? field_count : 2 * field_count;
    if (elements.size() - at < stored + 1) return std::nullopt;
    const StreamId id{master.ms + static_cast<std::uint64_t>(*ms_delta), master.seq + static_cast<std::uint64_t>(*seq_delta)};
    if (!node.flags_at.empty() && id <= node.flags_at.back().first) return std::nullopt;
    std::vector<std::string> fields;
    if ((*flags & kFlagDeleted) == 0) {
      for (std::size_t i = 0; i < field_count; ++i) {
        fields.push_back(same_fields ? elements[master_fields_at + i] : elements[at + 2 * i]);
        fields.push_back(same_fields ? elements[at + i] : elements[at + 2 * i + 1]);
      }
    }
    at += stored;
    const std::size_t extra = same_fields ? 0 : field_count + 1;
    if (integer() != static_cast<std::int64_t>(kFixedEntryElements + field_count + extra)) return std::nullopt;
    node.flags_at.emplace_back(id, flags_index);
    if ((*flags & kFlagDeleted) != 0) {
      ++deleted_seen;
    } else {
      ++live_seen;
      live_out.emplace_back(id, std::move(fields));
    }
  }
  if (node.flags_at.empty() || *live_count != live_seen || *deleted_count != deleted_seen) return std::nullopt;
  node.live = live_seen;
  node.appended = live_seen + deleted_seen;
  node.last = node.flags_at.back().first;
  node.bytes = kEmptyListpackBytes;
  for (const std::string& element : elements) node.bytes += element_bytes(element);
  node.elements = std::move(elements);
  return node;
}

}  // namespace lockcheck::mock
