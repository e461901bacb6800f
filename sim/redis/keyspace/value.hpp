#pragma once
// The value types a key can hold. Ordered containers only: iteration order reaches replies and must be
// the same on every run.
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "redis/keyspace/stream.hpp"

namespace lockcheck::mock {

// A hash keeps insertion order, as Redis's listpack encoding does for small hashes (HGETALL order is
// visible to scripts). Lookups are linear; lock hashes hold a handful of fields.
using Hash = std::vector<std::pair<std::string, std::string>>;

using List = std::deque<std::string>;

// A sorted set: score by member, plus (score, member) order for ranges, as Redis orders ties by member.
struct ZSet {
  std::map<std::string, double, std::less<>> score_of;
  std::set<std::pair<double, std::string>> by_score;
  friend bool operator==(const ZSet&, const ZSet&) = default;
};

// Set members in a fixed order: integers numerically first, then the rest bytewise. Redis 7.0 iterates a
// small all-integer set (intset) in numeric order, which this matches; its hashtable order depends on a
// hash seed drawn at start-up, so no fixed order can match that (README, known differences).
struct SetOrder {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const;
};
using Set = std::set<std::string, SetOrder>;

// A stream behind a pointer with value semantics (deep copies, equality by content): it is far larger than the
// other types, and a Value is as large as its largest alternative (every key of a lock would pay for it).
class StreamBox {
 public:
  StreamBox() : stream_(std::make_unique<Stream>()) {}
  StreamBox(const StreamBox& other) : stream_(std::make_unique<Stream>(*other.stream_)) {}
  StreamBox(StreamBox&&) noexcept = default;
  StreamBox& operator=(const StreamBox& other) {
    if (this != &other) stream_ = std::make_unique<Stream>(*other.stream_);
    return *this;
  }
  StreamBox& operator=(StreamBox&&) noexcept = default;
  ~StreamBox() = default;
  // A moved-from box is only ever destroyed or assigned to.
  Stream& get() const { return *stream_; }
  std::size_t size() const { return stream_->size(); }
  friend bool operator==(const StreamBox& a, const StreamBox& b) { return *a.stream_ == *b.stream_; }

 private:
  std::unique_ptr<Stream> stream_;
};

// New types go last: a Value's index is its type in switches (type_name).
using Value = std::variant<std::string, Hash, List, ZSet, Set, StreamBox>;

// The TYPE name of a value: "string", "hash", "list", "zset", "set", "stream".
const char* type_name(const Value& value);

// Hash helpers (linear, insertion ordered).
const std::string* hash_find(const Hash& hash, std::string_view field);
std::string* hash_find(Hash& hash, std::string_view field);
// Sets field to value; returns true when the field is new.
bool hash_set(Hash& hash, std::string_view field, std::string_view value);
bool hash_erase(Hash& hash, std::string_view field);

// ZSet helpers: returns true when member is new.
bool zset_put(ZSet& zset, const std::string& member, double score);
bool zset_erase(ZSet& zset, std::string_view member);

}  // namespace lockcheck::mock
