#pragma once
// The keyspace of one node: values, per-key deadlines on the node clock, lazy and active expiry, and
// eviction. It reports every change to the Observer, naming the acting client and command.
// Copyable state (Dataset) makes snapshots for replicas, failover and restarts trivial.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "redis/keyspace/encoding.hpp"
#include "redis/keyspace/eviction_policy.hpp"
#include "redis/keyspace/lfu_counter.hpp"
#include "redis/keyspace/observer.hpp"
#include "redis/keyspace/value.hpp"
#include "redis/keyspace/watched_keys.hpp"

namespace lockcheck::mock {

struct Entry {
  Value value;
  std::optional<std::int64_t> expire_at_ms;  // Unix ms on the node clock; none = persistent
  std::uint64_t last_access_tick = 0;        // logical access counter for allkeys-lru (never time)
  std::int64_t last_access_ms = 0;           // node clock at the last access (OBJECT IDLETIME)
  Encoding encoding = Encoding::unsettled;   // what OBJECT ENCODING answers (encoding.hpp)
  LfuState lfu;                              // kept only under an LFU policy (lfu_counter.hpp)
  // Equal values: when each copy was last read is not part of the data (replicas read at other times).
  friend bool operator==(const Entry& a, const Entry& b) {
    return a.value == b.value && a.expire_at_ms == b.expire_at_ms && a.last_access_tick == b.last_access_tick &&
           a.encoding == b.encoding;
  }
};

// Redis's default `databases`: SELECT 0..15.
inline constexpr int kDatabases = 16;

// One numbered database (SELECT n).
struct Database {
  std::map<std::string, Entry, std::less<>> entries;
  std::set<std::pair<std::int64_t, std::string>> deadlines;  // (expire_at_ms, key), for active expiry
  friend bool operator==(const Database&, const Database&) = default;
};

// The whole data set, a plain value: copy it to snapshot, assign it to restore. `dbs` holds databases 0 up
// to the highest one ever selected (at least db 0), so a snapshot of a node that only uses db 0 - every
// simulated lock - copies one database, not sixteen.
struct Dataset {
  std::vector<Database> dbs = std::vector<Database>(1);
  // FUNCTION libraries, name -> code: Redis keeps them in the RDB and the replication stream (Node fills it).
  std::map<std::string, std::string> functions;
  // Equal when every database is, a database missing on one side counting as empty (and the functions equal).
  friend bool operator==(const Dataset& a, const Dataset& b);
};

// Who is acting: stamped on observer events.
struct Actor {
  std::int64_t client_id = -1;
  std::string_view command;
  std::string_view script_sha;
};

class Keyspace {
 public:
  explicit Keyspace(std::uint64_t eviction_seed = 0x5eed);

  void set_observer(Observer* observer) { observer_ = observer; }
  // The LFU counters are kept (each access draws from the node's source) only while `settings.enabled`.
  void set_lfu(const LfuSettings& settings) { lfu_ = settings; }
  const LfuSettings& lfu() const { return lfu_; }
  // maxmemory-samples: keys an LFU eviction draws per database to pick its victim from.
  void set_eviction_samples(std::size_t samples) { eviction_samples_ = samples == 0 ? 1 : samples; }
  // OBJECT FREQ: the key's counter after its idle periods, without counting an access.
  std::uint8_t lfu_frequency(const Entry& entry) const {
    return lfu_decayed(entry.lfu, lfu_minutes(now_ms_), lfu_.decay_minutes);
  }
  // Every command starts here: the node time it runs at (frozen for a whole script) and the actor.
  void begin(std::int64_t now_ms, Actor actor) {
    now_ms_ = now_ms;
    actor_ = actor;
    ++command_serial_;
  }
  void set_actor(Actor actor) {
    actor_ = actor;
    ++command_serial_;
  }
  const Actor& actor() const { return actor_; }
  std::int64_t now_ms() const { return now_ms_; }
  // The database the following operations act on (a connection's SELECT, or a script's own).
  void select(int db) {
    db_index_ = db;
    const auto index = static_cast<std::size_t>(db);
    if (index >= data_.dbs.size()) data_.dbs.resize(index + 1);
    db_ = &data_.dbs[index];
  }
  int selected() const { return db_index_; }

  // The live entry for key, or nullptr. A key whose deadline has passed (now > deadline, as Redis) is
  // removed here and reported as a lazy expiry.
  Entry* find(std::string_view key);
  // Inserts a key that find() just reported absent.
  Entry& add(std::string_view key, Value value);
  // Inserts an absent key in an encoding the caller chose, left as it is at the end of the command (RESTORE:
  // Redis converts on load by its own rules, which keep some values in forms a write would convert).
  Entry& add_with_encoding(std::string_view key, Value value, Encoding encoding);
  // SET semantics: replace any value; the deadline is cleared unless keep_ttl.
  Entry& put(std::string_view key, Value value, bool keep_ttl);
  // Report an in-place change of an existing key.
  void modified(std::string_view key);
  // Report a change Redis announces without signalling it to WATCH (a stream's consumer groups: XGROUP,
  // XSETID, a consumer created by XREADGROUP or XCLAIM).
  void announced(std::string_view key);
  // The live entry for key without counting an access (OBJECT, TTL, EXISTS, TYPE: Redis's LOOKUP_NOTOUCH):
  // expires it like find().
  Entry* peek(std::string_view key);
  // End of a command: containers created or changed by it get their encoding (encoding.hpp). Strings and
  // lists need none: a string's is fixed when written, a list's is always quicklist.
  void settle_encodings(const EncodingLimits& limits) {
    if (!unsettled_.empty()) settle_pending(limits);
  }
  // Removes key if present (DEL and friends); returns whether it existed (expired keys do not count).
  bool remove(std::string_view key);
  // Removes key if it is stored at all, past its deadline too, as Redis's dbDelete does where a command deletes
  // without looking the key up first (SORT ... STORE with an empty result): a "deleted" event, never "expired".
  bool remove_stored(std::string_view key);
  void set_expire(std::string_view key, std::int64_t expire_at_ms);
  // Removes the deadline; returns whether there was one.
  bool persist(std::string_view key);

  // Active expiry: removes up to `limit` keys whose deadline has passed, earliest deadline first.
  std::size_t expire_some(std::size_t limit);
  // Evicts one key under `policy`, chosen deterministically (seeded PRNG or least recently used).
  bool evict_one(EvictionPolicy policy);
  // Evicts `key` if the node has it (a fault that picks its victim instead of drawing one).
  bool evict(std::string_view key);

  // Number of keys in the selected database including expired ones not yet reclaimed (what DBSIZE shows).
  std::size_t size() const { return db_->entries.size(); }
  // Keys in all databases (the memory limit counts them all).
  std::size_t total_size() const;
  // FLUSHDB: empties the selected database.
  void clear();
  // FLUSHALL: empties every database.
  void clear_all();
  // SWAPDB: exchanges the contents of two databases; clients stay in theirs, so keys watched in either that
  // exist in either count as changed.
  void swap(int db1, int db2);

  // True when key is stored but its deadline has passed (not yet reclaimed); never reclaims it.
  bool expired_in_place(std::string_view key) const { return expired_in_place(key, db_index_); }
  bool expired_in_place(std::string_view key, int db) const;
  WatchedKeys& watched(int db) { return watched_[static_cast<std::size_t>(db)]; }
  const WatchedKeys& watched(int db) const { return watched_[static_cast<std::size_t>(db)]; }

  const Dataset& dataset() const { return data_; }
  // Database db, empty if it was never selected.
  const Database& database(int db) const;
  const Database& current() const { return *db_; }
  void restore(Dataset dataset) {
    data_ = std::move(dataset);
    select(db_index_);  // the vector may have moved or shrunk
  }
  // A draw from the node's seeded source (RANDOMKEY, eviction): deterministic per seed.
  std::uint64_t next_random();

 private:
  using Iterator = std::map<std::string, Entry, std::less<>>::iterator;
  void emit(KeyEventKind kind, std::string_view key, std::int64_t expire_at_ms = 0, bool lazy = false);
  void erase(Iterator it);
  // Empties the selected database, reporting each key as deleted.
  void clear_selected();
  // Remembers a container key written by the running command, for settle_encodings().
  void note_unsettled(std::string_view key);
  void settle_pending(const EncodingLimits& limits);
  // The key an LFU eviction takes: the lowest counter among sampled keys of every database (all keys, or those
  // with a deadline); false when there is none.
  bool pick_lfu_victim(bool volatile_only, int& victim_db, Iterator& victim);
  void count_access(Entry& entry);

  Dataset data_;
  Database* db_ = &data_.dbs[0];  // the selected database: the hot path pays one pointer, not an index
  int db_index_ = 0;
  Observer* observer_ = nullptr;
  std::array<WatchedKeys, kDatabases> watched_;
  Actor actor_;
  std::int64_t now_ms_ = 0;
  std::uint64_t access_tick_ = 0;
  std::uint64_t rng_state_;
  LfuSettings lfu_;
  std::uint32_t command_serial_ = 0;  // one per command (LFU counts an access per key per command)
  std::size_t eviction_samples_ = 5;
  bool unwatched_change_ = false;  // set while announced() emits
  std::vector<std::pair<int, std::string>> unsettled_;  // (db, key) written by the running command
};

}  // namespace lockcheck::mock
