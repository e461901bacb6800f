#include "redis/keyspace/keyspace.hpp"

#include "lockcheck/assert.hpp"

#include <algorithm>

namespace lockcheck::mock {

const char* to_string(KeyEventKind kind) {
  switch (kind) {
    case KeyEventKind::created: return "created";
    case KeyEventKind::overwritten: return "overwritten";
    case KeyEventKind::modified: return "modified";
    case KeyEventKind::expire_set: return "expire_set";
    case KeyEventKind::expire_removed: return "expire_removed";
    case KeyEventKind::deleted: return "deleted";
    case KeyEventKind::expired: return "expired";
    case KeyEventKind::evicted: return "evicted";
  }
  return "unknown";
}

bool operator==(const Dataset& a, const Dataset& b) {
  static const Database kEmpty;
  for (std::size_t i = 0, n = std::max(a.dbs.size(), b.dbs.size()); i < n; ++i) {
    const Database& left = i < a.dbs.size() ? a.dbs[i] : kEmpty;
    const Database& right = i < b.dbs.size() ? b.dbs[i] : kEmpty;
    if (!(left == right)) return false;
  }
  return a.functions == b.functions;
}

Keyspace::Keyspace(std::uint64_t eviction_seed) : rng_state_(eviction_seed) {}

const Database& Keyspace::database(int db) const {
  static const Database kEmpty;
  const auto index = static_cast<std::size_t>(db);
  return index < data_.dbs.size() ? data_.dbs[index] : kEmpty;
}

void Keyspace::emit(KeyEventKind kind, std::string_view key, std::int64_t expire_at_ms, bool lazy) {
  if (!unwatched_change_) watched_[static_cast<std::size_t>(db_index_)].changed(key, kind == KeyEventKind::expired);
  if (observer_ == nullptr) return;
  KeyEvent event;
  event.db = db_index_;
  event.kind = kind;
  event.key = key;
  event.node_time_ms = now_ms_;
  event.expire_at_ms = expire_at_ms;
  event.lazy = lazy;
  // Expiry and eviction are the server's own doing, whoever happened to touch the key.
  bool by_server = kind == KeyEventKind::expired || kind == KeyEventKind::evicted;
  event.client_id = by_server ? -1 : actor_.client_id;
  event.command = by_server ? std::string_view{} : actor_.command;
  event.script_sha = by_server ? std::string_view{} : actor_.script_sha;
  observer_->on_key_event(event);
}

void Keyspace::erase(Iterator it) {
  if (it->second.expire_at_ms) db_->deadlines.erase({*it->second.expire_at_ms, it->first});
  db_->entries.erase(it);
}

Entry* Keyspace::find(std::string_view key) {
  auto it = db_->entries.find(key);
  if (it == db_->entries.end()) return nullptr;
  Entry& entry = it->second;
  if (entry.expire_at_ms && now_ms_ > *entry.expire_at_ms) {
    emit(KeyEventKind::expired, it->first, *entry.expire_at_ms, /*lazy=*/true);
    erase(it);
    return nullptr;
  }
  entry.last_access_tick = ++access_tick_;
  entry.last_access_ms = now_ms_;
  if (lfu_.enabled) count_access(entry);
  return &entry;
}

void Keyspace::count_access(Entry& entry) {
  if (entry.lfu.counted_in_command == command_serial_) return;
  entry.lfu.counted_in_command = command_serial_;
  const double unit = static_cast<double>(next_random() >> 11) * 0x1.0p-53;  // [0, 1), as Redis's rand()/RAND_MAX
  entry.lfu = lfu_accessed(entry.lfu, lfu_minutes(now_ms_), lfu_, unit);
}

Entry* Keyspace::peek(std::string_view key) {
  auto it = db_->entries.find(key);
  if (it == db_->entries.end()) return nullptr;
  const std::uint64_t tick = it->second.last_access_tick;
  const std::int64_t access_ms = it->second.last_access_ms;
  const std::uint64_t counter = access_tick_;
  const LfuState lfu = it->second.lfu;
  const std::uint64_t rng_state = rng_state_;
  Entry* entry = find(key);
  if (entry == nullptr) return nullptr;
  entry->last_access_tick = tick;
  entry->last_access_ms = access_ms;
  entry->lfu = lfu;
  access_tick_ = counter;
  rng_state_ = rng_state;
  return entry;
}

void Keyspace::note_unsettled(std::string_view key) {
  for (const auto& [db, pending] : unsettled_) {
    if (db == db_index_ && pending == key) return;  // a command touches a handful of keys
  }
  unsettled_.emplace_back(db_index_, std::string(key));
}

void Keyspace::settle_pending(const EncodingLimits& limits) {
  for (const auto& [db, key] : unsettled_) {
    if (static_cast<std::size_t>(db) >= data_.dbs.size()) continue;
    auto& entries = data_.dbs[static_cast<std::size_t>(db)].entries;
    auto it = entries.find(key);
    if (it == entries.end()) continue;  // deleted by the same command
    it->second.encoding = grown_encoding(it->second.encoding, it->second.value, limits);
  }
  unsettled_.clear();
}

bool Keyspace::expired_in_place(std::string_view key, int db) const {
  const auto& entries = database(db).entries;
  auto it = entries.find(key);
  return it != entries.end() && it->second.expire_at_ms && now_ms_ > *it->second.expire_at_ms;
}

Entry& Keyspace::add(std::string_view key, Value value) {
  auto [it, inserted] = db_->entries.try_emplace(std::string(key));
  LOCKCHECK_ASSERT(inserted && "add() is only for absent keys");
  it->second.value = std::move(value);
  it->second.last_access_tick = ++access_tick_;
  it->second.last_access_ms = now_ms_;
  if (lfu_.enabled) it->second.lfu = LfuState{lfu_minutes(now_ms_), kLfuInitialCounter, true, command_serial_};
  if (!std::holds_alternative<std::string>(it->second.value)) note_unsettled(key);
  emit(KeyEventKind::created, it->first);
  return it->second;
}

Entry& Keyspace::add_with_encoding(std::string_view key, Value value, Encoding encoding) {
  Entry& entry = add(key, std::move(value));
  entry.encoding = encoding;
  if (!unsettled_.empty() && unsettled_.back().first == db_index_ && unsettled_.back().second == key) unsettled_.pop_back();
  return entry;
}

Entry& Keyspace::put(std::string_view key, Value value, bool keep_ttl) {
  Entry* existing = find(key);
  if (existing == nullptr) return add(key, std::move(value));
  existing->value = std::move(value);
  existing->encoding = Encoding::unsettled;
  if (!std::holds_alternative<std::string>(existing->value)) note_unsettled(key);
  emit(KeyEventKind::overwritten, key);
  if (!keep_ttl && existing->expire_at_ms) {
    db_->deadlines.erase({*existing->expire_at_ms, std::string(key)});
    existing->expire_at_ms.reset();
    emit(KeyEventKind::expire_removed, key);
  }
  return *existing;
}

void Keyspace::modified(std::string_view key) {
  note_unsettled(key);
  emit(KeyEventKind::modified, key);
}

void Keyspace::announced(std::string_view key) {
  unwatched_change_ = true;
  emit(KeyEventKind::modified, key);
  unwatched_change_ = false;
}

bool Keyspace::remove(std::string_view key) {
  // find() expires a key past its deadline first, so only a live key is left to remove.
  return find(key) != nullptr && remove_stored(key);
}

bool Keyspace::remove_stored(std::string_view key) {
  auto it = db_->entries.find(key);
  if (it == db_->entries.end()) return false;
  emit(KeyEventKind::deleted, it->first);
  erase(it);
  return true;
}

void Keyspace::set_expire(std::string_view key, std::int64_t expire_at_ms) {
  auto it = db_->entries.find(key);
  LOCKCHECK_ASSERT(it != db_->entries.end() && "an expiry is set on a key that exists");
  if (it->second.expire_at_ms) db_->deadlines.erase({*it->second.expire_at_ms, it->first});
  it->second.expire_at_ms = expire_at_ms;
  db_->deadlines.insert({expire_at_ms, it->first});
  // Every deadline belongs to one key: the active expiry cycle deletes by it (a lock's TTL is this entry).
  LOCKCHECK_ASSERT(db_->deadlines.size() <= db_->entries.size());
  emit(KeyEventKind::expire_set, it->first, expire_at_ms);
}

bool Keyspace::persist(std::string_view key) {
  auto it = db_->entries.find(key);
  if (it == db_->entries.end() || !it->second.expire_at_ms) return false;
  db_->deadlines.erase({*it->second.expire_at_ms, it->first});
  it->second.expire_at_ms.reset();
  emit(KeyEventKind::expire_removed, it->first);
  return true;
}

std::size_t Keyspace::expire_some(std::size_t limit) {
  // Databases in order, as Redis's active expiry cycle visits them; the selection is restored after.
  const int selected_db = db_index_;
  std::size_t removed = 0;
  for (int db = 0; db < static_cast<int>(data_.dbs.size()) && removed < limit; ++db) {
    select(db);
    while (removed < limit && !db_->deadlines.empty()) {
      auto [deadline_ms, key] = *db_->deadlines.begin();
      if (!(now_ms_ > deadline_ms)) break;
      auto it = db_->entries.find(key);
      LOCKCHECK_ASSERT(it != db_->entries.end() && it->second.expire_at_ms == deadline_ms && "a deadline names its key's expiry");
      emit(KeyEventKind::expired, it->first, deadline_ms, /*lazy=*/false);
      erase(it);
      ++removed;
    }
  }
  select(selected_db);
  return removed;
}

std::uint64_t Keyspace::next_random() {
  // splitmix64: small, seeded, identical on every platform.
  std::uint64_t z = (rng_state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

bool Keyspace::evict_one(EvictionPolicy policy) {
  if (policy == EvictionPolicy::noeviction) return false;
  int victim_db = -1;
  Iterator victim;
  if (policy == EvictionPolicy::allkeys_random) {
    // The first non-empty database, then a random key in it (Redis's allkeys-random also picks per db).
    for (int db = 0; db < static_cast<int>(data_.dbs.size()) && victim_db < 0; ++db) {
      auto& entries = data_.dbs[static_cast<std::size_t>(db)].entries;
      if (entries.empty()) continue;
      victim_db = db;
      victim = entries.begin();
      std::advance(victim, static_cast<std::ptrdiff_t>(next_random() % entries.size()));
    }
  } else if (policy == EvictionPolicy::allkeys_lfu || policy == EvictionPolicy::volatile_lfu) {
    if (!pick_lfu_victim(policy == EvictionPolicy::volatile_lfu, victim_db, victim)) return false;
  } else {
    // Exact LRU over the logical access counter, across databases; ties cannot happen (unique per access).
    for (int db = 0; db < static_cast<int>(data_.dbs.size()); ++db) {
      auto& entries = data_.dbs[static_cast<std::size_t>(db)].entries;
      for (auto it = entries.begin(); it != entries.end(); ++it) {
        if (victim_db < 0 || it->second.last_access_tick < victim->second.last_access_tick) {
          victim_db = db;
          victim = it;
        }
      }
    }
  }
  if (victim_db < 0) return false;
  const int selected_db = db_index_;
  select(victim_db);
  emit(KeyEventKind::evicted, victim->first);
  erase(victim);
  select(selected_db);
  return true;
}

bool Keyspace::evict(std::string_view key) {
  auto victim = db_->entries.find(std::string(key));
  if (victim == db_->entries.end()) return false;
  emit(KeyEventKind::evicted, victim->first);
  erase(victim);
  return true;
}

std::size_t Keyspace::total_size() const {
  std::size_t keys = 0;
  for (const Database& db : data_.dbs) keys += db.entries.size();
  return keys;
}

void Keyspace::clear_selected() {
  // FLUSHDB/FLUSHALL report each key as deleted, in key order, so the history explains where locks went.
  while (!db_->entries.empty()) {
    auto it = db_->entries.begin();
    emit(KeyEventKind::deleted, it->first);
    erase(it);
  }
}

void Keyspace::clear() { clear_selected(); }

void Keyspace::clear_all() {
  const int selected_db = db_index_;
  for (int db = 0; db < static_cast<int>(data_.dbs.size()); ++db) {
    select(db);
    clear_selected();
  }
  select(selected_db);
}

void Keyspace::swap(int db1, int db2) {
  if (db1 == db2) return;
  const int selected_db = db_index_;
  select(std::max(db1, db2));  // both exist from here on
  select(selected_db);
  auto& first = data_.dbs[static_cast<std::size_t>(db1)];
  auto& second = data_.dbs[static_cast<std::size_t>(db2)];
  auto live_in = [&](const Database& db, const std::string& key) {
    auto it = db.entries.find(key);
    return it != db.entries.end() && !(it->second.expire_at_ms && now_ms_ > *it->second.expire_at_ms);
  };
  // touchAllWatchedKeysInDb both ways: a watched key that exists on either side has changed.
  for (int db : {db1, db2}) {
    watched_[static_cast<std::size_t>(db)].touch_if(
        [&](const std::string& key) { return live_in(first, key) || live_in(second, key); });
  }
  std::swap(first, second);
}

bool Keyspace::pick_lfu_victim(bool volatile_only, int& victim_db, Iterator& victim) {
  // Redis samples maxmemory-samples keys per database and evicts the least frequently used of them; a database
  // no larger than the sample is taken whole, so small ones are exact. Ties go to the first one drawn.
  std::uint8_t lowest = 0;
  auto consider = [&](int db, Iterator it) {
    const std::uint8_t counter = lfu_decayed(it->second.lfu, lfu_minutes(now_ms_), lfu_.decay_minutes);
    if (victim_db < 0 || counter < lowest) {
      victim_db = db;
      victim = it;
      lowest = counter;
    }
  };
  for (int db = 0; db < static_cast<int>(data_.dbs.size()); ++db) {
    Database& database = data_.dbs[static_cast<std::size_t>(db)];
    if (!volatile_only) {
      const std::size_t size = database.entries.size();
      if (size <= eviction_samples_) {
        for (auto it = database.entries.begin(); it != database.entries.end(); ++it) consider(db, it);
        continue;
      }
      for (std::size_t drawn = 0; drawn < eviction_samples_; ++drawn) {
        auto it = database.entries.begin();
        std::advance(it, static_cast<std::ptrdiff_t>(next_random() % size));
        consider(db, it);
      }
      continue;
    }
    const std::size_t size = database.deadlines.size();
    const bool whole = size <= eviction_samples_;
    auto deadline = database.deadlines.begin();
    for (std::size_t drawn = 0; drawn < (whole ? size : eviction_samples_); ++drawn, ++deadline) {
      if (!whole) {
        deadline = database.deadlines.begin();
        std::advance(deadline, static_cast<std::ptrdiff_t>(next_random() % size));
      }
      auto it = database.entries.find(deadline->second);
      if (it != database.entries.end()) consider(db, it);
    }
  }
  return victim_db >= 0;
}

}  // namespace lockcheck::mock
