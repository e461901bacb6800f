#include "redis/keyspace/stream.hpp"

#include <cerrno>
#include <cstdlib>
#include <iterator>

#include "redis/util/numbers.hpp"

namespace lockcheck::mock {
namespace {

// Redis's string2ull: a strict signed integer that is not negative, else whatever strtoull takes whole
// (which lets "+5" and " 5" through, as 7.0.15 does).
std::optional<std::uint64_t> parse_uint64(const std::string& text) {
  if (auto value = parse_int64(text)) {
    if (*value < 0) return std::nullopt;
    return static_cast<std::uint64_t>(*value);
  }
  if (text.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (errno == EINVAL || errno == ERANGE || end == nullptr || *end != '\0') return std::nullopt;
  return static_cast<std::uint64_t>(value);
}

constexpr std::int64_t kListpackMaxBytes = (1LL << 30);  // STREAM_LISTPACK_MAX_SIZE

}  // namespace

std::string format_stream_id(StreamId id) { return std::to_string(id.ms) + "-" + std::to_string(id.seq); }

std::optional<StreamId> next_stream_id(StreamId id) {
  if (id.seq != UINT64_MAX) return StreamId{id.ms, id.seq + 1};
  if (id.ms != UINT64_MAX) return StreamId{id.ms + 1, 0};
  return std::nullopt;
}

std::optional<StreamId> previous_stream_id(StreamId id) {
  if (id.seq != 0) return StreamId{id.ms, id.seq - 1};
  if (id.ms != 0) return StreamId{id.ms - 1, UINT64_MAX};
  return std::nullopt;
}

std::optional<StreamId> parse_stream_id(std::string_view text, std::uint64_t missing_seq, bool strict, bool* seq_given) {
  if (text.size() > 127) return std::nullopt;
  if (strict && (text == "-" || text == "+")) return std::nullopt;
  if (seq_given != nullptr) *seq_given = true;
  if (text == "-") return StreamId{0, 0};
  if (text == "+") return kMaxStreamId;
  // Redis works on a C string: an embedded NUL ends it.
  const std::string buffer(text.substr(0, text.find('\0')));
  const std::size_t dash = buffer.find('-');
  auto ms = parse_uint64(buffer.substr(0, dash));
  if (!ms) return std::nullopt;
  if (dash == std::string::npos) return StreamId{*ms, missing_seq};
  const std::string seq_text = buffer.substr(dash + 1);
  if (seq_given != nullptr && seq_text == "*") {
    *seq_given = false;
    return StreamId{*ms, 0};
  }
  auto seq = parse_uint64(seq_text);
  if (!seq) return std::nullopt;
  return StreamId{*ms, *seq};
}

void Stream::append(StreamId id, std::vector<std::string> fields, const StreamNodeLimits& limits) {
  std::int64_t payload = 0;
  for (const std::string& each : fields) payload += static_cast<std::int64_t>(each.size());
  std::int64_t max_bytes = limits.max_bytes;
  if (max_bytes <= 0 || max_bytes > kListpackMaxBytes) max_bytes = kListpackMaxBytes;
  bool new_node = nodes.empty();
  if (!new_node) {
    const StreamNode& tail = nodes.rbegin()->second;
    new_node = tail.bytes + payload >= max_bytes || (limits.max_entries > 0 && tail.appended >= limits.max_entries);
  }
  if (new_node) nodes[id] = StreamNode::open(fields);
  auto& [master, tail] = *nodes.rbegin();
  tail.add(master, id, fields);
  entries.emplace(id, std::move(fields));
  last_id = id;
  ++entries_added;
  if (entries.size() == 1) first_id = id;
}

bool Stream::erase(StreamId id) {
  if (entries.erase(id) == 0) return false;
  auto node = nodes.upper_bound(id);
  if (node != nodes.begin()) {
    --node;
    node->second.mark_deleted(id);
    if (node->second.live == 0) nodes.erase(node);
  }
  return true;
}

std::int64_t trim_stream(Stream& stream, const StreamTrim& trim) {
  using Strategy = StreamTrim::Strategy;
  if (trim.strategy == Strategy::none) return 0;
  std::int64_t deleted = 0;
  auto length = [&stream] { return static_cast<std::int64_t>(stream.entries.size()); };
  // Each pass removes a node or ends: bounded by the node count.
  while (!stream.nodes.empty()) {
    if (trim.strategy == Strategy::maxlen && length() <= trim.maxlen) break;
    auto node = stream.nodes.begin();
    const std::int64_t live = node->second.live;
    if (trim.limit != 0 && deleted + live > trim.limit) break;
    const bool whole = trim.strategy == Strategy::maxlen ? length() - live >= trim.maxlen
                                                         : node->second.last < trim.minid;
    if (whole) {
      const StreamId master = node->first;
      const StreamId last = node->second.last;
      stream.entries.erase(stream.entries.lower_bound(master), stream.entries.upper_bound(last));
      stream.nodes.erase(node);
      deleted += live;
      continue;
    }
    if (trim.approx) break;
    // Exact: mark this node's entries deleted from its start until the condition holds.
    for (auto it = stream.entries.lower_bound(node->first); it != stream.entries.end() && it->first <= node->second.last;) {
      const bool stop = trim.strategy == Strategy::maxlen ? length() <= trim.maxlen : it->first >= trim.minid;
      if (stop) break;
      node->second.mark_deleted(it->first);
      it = stream.entries.erase(it);
      ++deleted;
    }
    break;
  }
  stream.refresh_first_id();
  return deleted;
}

bool stream_range_has_tombstones(const Stream& stream, StreamId start) {
  if (stream.entries.empty() || stream.max_deleted_id == StreamId{}) return false;
  if (stream.first_id > stream.max_deleted_id) return false;
  return start <= stream.max_deleted_id;
}

std::optional<std::int64_t> estimate_entries_read(const Stream& stream, StreamId id) {
  const auto added = static_cast<std::int64_t>(stream.entries_added);
  if (added == 0) return 0;
  const auto length = static_cast<std::int64_t>(stream.entries.size());
  if (length == 0 && id <= stream.last_id) return added;
  if (id == stream.last_id) return added;
  if (id > stream.last_id) return std::nullopt;
  if (stream.max_deleted_id == StreamId{} || stream.max_deleted_id < stream.first_id) {
    if (id < stream.first_id) return added - length;
    if (id == stream.first_id) return added - length + 1;
  }
  return std::nullopt;
}

std::optional<std::int64_t> group_lag(const Stream& stream, const ConsumerGroup& group) {
  const auto added = static_cast<std::int64_t>(stream.entries_added);
  if (added == 0) return 0;
  if (group.entries_read != kEntriesReadUnknown && !stream_range_has_tombstones(stream, group.last_delivered)) {
    return added - group.entries_read;
  }
  if (auto read = estimate_entries_read(stream, group.last_delivered)) return added - *read;
  return std::nullopt;
}

}  // namespace lockcheck::mock
