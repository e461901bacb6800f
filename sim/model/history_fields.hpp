#pragma once
// The names of the history's fields (sim/README.md, "History format"), each with a small number: every name the
// simulator writes with HistoryLine and every name the checkers' parser reads. A literal name is numbered when it
// compiles (FieldName): the simulator records the number, not the name, and the parser finds a field by indexing
// an array with it. Looking names up as text, as each line was recorded and as each field was asked for, made
// two fifths of reading a recorded line. Names outside the list (a Json object's) are numbered at run time
// (field_id), or kept as text when the list lacks them.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string_view>

namespace lockcheck::sim {

inline constexpr std::string_view kFieldNames[] = {
    "i", "t", "kind", "schema", "scenario", "seed", "variant", "ttl_ms", "clients", "nodes", "fencing", "end",
    "replication_lag_max_us", "quorum", "permits", "latch", "fair", "lossy_links", "lock_keys", "script_files",
    "estimated_validity", "type", "process", "thread", "f", "key", "local", "token", "valid_until",
    "valid_until_local", "detail", "result", "refused_at", "attempts", "error", "mode", "value", "version",
    "read_version", "accepted", "stale", "fault", "node", "from", "duration_us", "delta_us", "drift_ppm", "delay_us",
    "request_ppm", "reply_ppm", "from_serving", "event", "by", "command", "script", "node_time_ms", "expire_at_ms",
    "since_us", "replicated", "holders", "lock", "write",
    // Written by the simulator for readers of the history (the checkers do not read them).
    "nested", "polls", "remaining", "skipped_write",
};
inline constexpr std::size_t kFieldNameCount = std::size(kFieldNames);
inline constexpr std::uint8_t kNoFieldId = 0xFF;

static_assert(kFieldNameCount < 0xFF);

// A name's number in kFieldNames; kNoFieldId for a name the parser never asks for.
constexpr std::uint8_t field_id_of(std::string_view name) {
  for (std::size_t id = 0; id < kFieldNameCount; ++id) {
    if (kFieldNames[id] == name) return static_cast<std::uint8_t>(id);
  }
  return kNoFieldId;
}

// A field named by a literal, numbered at compile time: a name missing from kFieldNames does not compile.
struct FieldName {
  consteval FieldName(const char* literal) : id(field_id_of(literal)) {  // NOLINT: implicit by design
    if (id == kNoFieldId) throw "a history field written or read by name must be in kFieldNames";
  }
  std::string_view text() const { return kFieldNames[id]; }
  // Only the number: one byte passed in a register (a name's view beside it put every read's argument on the stack).
  std::uint8_t id;
};

namespace detail {

// Two short names equal, compared inline (a call to memcmp per name cost more than the rest of the lookup): from
// eight bytes on, eight at a time, the last eight possibly overlapping the ones before.
inline bool same_name(std::string_view a, std::string_view b) {
  const std::size_t size = a.size();
  if (size != b.size()) return false;
  if (size < 8) {
    for (std::size_t at = 0; at < size; ++at) {
      if (a[at] != b[at]) return false;
    }
    return true;
  }
  const auto eight = [](const char* bytes) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes, sizeof word);
    return word;
  };
  for (std::size_t at = 0; at + 8 < size; at += 8) {
    if (eight(a.data() + at) != eight(b.data() + at)) return false;
  }
  return eight(a.data() + size - 8) == eight(b.data() + size - 8);
}

// A name's slot from its length and its first, middle and last bytes: three loads and no loop over the name.
constexpr std::size_t field_slot(std::string_view name) {
  const std::size_t size = name.size();
  if (size == 0) return 0;
  const auto byte = [&](std::size_t at) { return static_cast<std::uint64_t>(static_cast<unsigned char>(name[at])); };
  const std::uint64_t mixed = size | byte(0) << 8 | byte(size / 2) << 16 | byte(size - 1) << 24;
  return static_cast<std::size_t>((mixed * 0x9E3779B97F4A7C15ull) >> 56);  // Fibonacci hashing: 8 bits
}
inline constexpr std::size_t kFieldSlots = 256;  // twice the names and more: probes stay short, and end

// Each slot: a name's id + 1, or 0 (free).
inline constexpr std::array<std::uint8_t, kFieldSlots> kFieldSlotTable = [] {
  std::array<std::uint8_t, kFieldSlots> table{};
  for (std::size_t id = 0; id < kFieldNameCount; ++id) {
    std::size_t slot = field_slot(kFieldNames[id]);
    while (table[slot] != 0) slot = (slot + 1) % kFieldSlots;  // bounded: free slots remain
    table[slot] = static_cast<std::uint8_t>(id + 1);
  }
  return table;
}();
static_assert(kFieldNameCount * 2 <= kFieldSlots);

}  // namespace detail

// field_id_of at run time, for the names of a line being read.
inline std::uint8_t field_id(std::string_view name) {
  // Bounded: the table has free slots, and a free slot ends the probe.
  for (std::size_t slot = detail::field_slot(name);; slot = (slot + 1) % detail::kFieldSlots) {
    const std::uint8_t at = detail::kFieldSlotTable[slot];
    if (at == 0) return kNoFieldId;
    if (detail::same_name(kFieldNames[at - 1], name)) return static_cast<std::uint8_t>(at - 1);
  }
}

}  // namespace lockcheck::sim
