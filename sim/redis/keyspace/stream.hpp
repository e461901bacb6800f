#pragma once
// Redis 7.0's stream type: entries ordered by (ms, seq) IDs, the stream's counters, and consumer groups with
// their pending-entries lists. Entries are grouped into nodes the way Redis fills its radix-tree listpacks
// (stream-node-max-entries / -bytes), because approximate trimming (MAXLEN ~, MINID ~) only drops whole nodes.
#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lockcheck::mock {

struct StreamId {
  std::uint64_t ms = 0;
  std::uint64_t seq = 0;
  friend auto operator<=>(const StreamId&, const StreamId&) = default;
  friend bool operator==(const StreamId&, const StreamId&) = default;
};

inline constexpr StreamId kMaxStreamId{UINT64_MAX, UINT64_MAX};

std::string format_stream_id(StreamId id);
// The next / previous ID; nullopt at the ends of the ID space (Redis's streamIncrID/streamDecrID errors).
std::optional<StreamId> next_stream_id(StreamId id);
std::optional<StreamId> previous_stream_id(StreamId id);

// Redis's streamGenericParseIDOrReply: "ms[-seq]" with `missing_seq` for a bare ms; `-`/`+` unless strict;
// with `seq_given` set, "ms-*" parses to seq 0 and clears *seq_given.
std::optional<StreamId> parse_stream_id(std::string_view text, std::uint64_t missing_seq, bool strict,
                                        bool* seq_given = nullptr);

struct PendingEntry {
  std::string consumer;
  std::int64_t delivery_time_ms = 0;  // node clock
  std::int64_t delivery_count = 1;
  friend bool operator==(const PendingEntry&, const PendingEntry&) = default;
};

struct StreamConsumer {
  std::int64_t seen_time_ms = 0;  // node clock
  std::set<StreamId> pending;
  friend bool operator==(const StreamConsumer&, const StreamConsumer&) = default;
};

inline constexpr std::int64_t kEntriesReadUnknown = -1;  // Redis's SCG_INVALID_ENTRIES_READ

struct ConsumerGroup {
  StreamId last_delivered;
  std::int64_t entries_read = kEntriesReadUnknown;
  std::map<StreamId, PendingEntry> pending;
  std::map<std::string, StreamConsumer> consumers;  // byte order, as Redis's radix tree lists them
  friend bool operator==(const ConsumerGroup&, const ConsumerGroup&) = default;
};

// One listpack of Redis's radix tree, keyed in Stream::nodes by its master ID, element for element as
// t_stream.c lays it out (integers as their decimal text): the master entry (live count, deleted count, field
// count, the first entry's field names, 0), then per entry its flags, ms and seq deltas from the master ID,
// [field count, field names,] values and lp-count. Deleted entries stay, flagged, until the node goes.
struct StreamNode {
  std::int64_t live = 0;      // entries not deleted
  std::int64_t appended = 0;  // entries ever appended (live + marked deleted): what fills a node
  std::int64_t bytes = 0;     // the listpack's size (lpBytes)
  StreamId last;              // the last ID appended
  std::vector<std::string> elements;
  std::vector<std::pair<StreamId, std::size_t>> flags_at;  // each entry's flags element, IDs ascending
  friend bool operator==(const StreamNode&, const StreamNode&) = default;

  // A node holding only the master entry of `fields` (field, value, ...: the names are taken).
  static StreamNode open(const std::vector<std::string>& fields);
  // Appends entry `id` (streamAppendItem's layout, same-fields compressed against the master entry).
  void add(StreamId master, StreamId id, const std::vector<std::string>& fields);
  // Flags entry `id` deleted and moves one from the live to the deleted count; false when absent or deleted.
  bool mark_deleted(StreamId id);
  // A node read from its listpack's elements, its live entries added to `live` (IDs ascending); nullopt when
  // the elements are not a stream node's.
  using Entries = std::vector<std::pair<StreamId, std::vector<std::string>>>;
  static std::optional<StreamNode> from_elements(StreamId master, std::vector<std::string> elements, Entries& live);
};

struct StreamNodeLimits {
  std::int64_t max_entries = 100;  // stream-node-max-entries
  std::int64_t max_bytes = 4096;   // stream-node-max-bytes
};

struct Stream {
  std::map<StreamId, std::vector<std::string>> entries;  // field, value, field, value...
  std::map<StreamId, StreamNode> nodes;
  StreamId last_id;
  StreamId first_id;        // recorded-first-entry-id
  StreamId max_deleted_id;  // max-deleted-entry-id
  std::uint64_t entries_added = 0;
  std::map<std::string, ConsumerGroup> groups;

  std::size_t size() const { return entries.size(); }
  friend bool operator==(const Stream&, const Stream&) = default;

  // Appends an entry under `id` (greater than last_id: the caller checked), filling nodes as Redis does.
  void append(StreamId id, std::vector<std::string> fields, const StreamNodeLimits& limits);
  // Removes one entry (XDEL, exact trimming); false when absent. Leaves first_id / max_deleted_id to the caller.
  bool erase(StreamId id);
  // The last entry's ID, 0-0 when empty (streamLastValidID).
  StreamId last_valid_id() const { return entries.empty() ? StreamId{} : entries.rbegin()->first; }
  void refresh_first_id() { first_id = entries.empty() ? StreamId{} : entries.begin()->first; }
};

struct StreamTrim {
  enum class Strategy : std::uint8_t { none, maxlen, minid } strategy = Strategy::none;
  bool approx = false;
  std::int64_t maxlen = 0;
  StreamId minid;
  std::int64_t limit = 0;  // 0: unlimited
};

// streamTrim: whole nodes first, then (exact trimming only) entries of the first remaining node. Returns the
// number of entries removed.
std::int64_t trim_stream(Stream& stream, const StreamTrim& trim);

// Consumer-group lag helpers (streamRangeHasTombstones, streamEstimateDistanceFromFirstEverEntry).
bool stream_range_has_tombstones(const Stream& stream, StreamId start);
std::optional<std::int64_t> estimate_entries_read(const Stream& stream, StreamId id);
// The group's lag as XINFO reports it; nullopt when unknown (a null reply).
std::optional<std::int64_t> group_lag(const Stream& stream, const ConsumerGroup& group);

}  // namespace lockcheck::mock
