#include "keyspace.hpp"

#include <cassert>

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

Keyspace::Keyspace(std::uint64_t eviction_seed) : rng_state_(eviction_seed) {}

void Keyspace::emit(KeyEventKind kind, std::string_view key, std::int64_t expire_at_ms, bool lazy) {
  watched_.changed(key, kind == KeyEventKind::expired);
  if (observer_ == nullptr) return;
  KeyEvent event;
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
  if (it->second.expire_at_ms) data_.deadlines.erase({*it->second.expire_at_ms, it->first});
  data_.entries.erase(it);
}

Entry* Keyspace::find(std::string_view key) {
  auto it = data_.entries.find(key);
  if (it == data_.entries.end()) return nullptr;
  Entry& entry = it->second;
  if (entry.expire_at_ms && now_ms_ > *entry.expire_at_ms) {
    emit(KeyEventKind::expired, it->first, *entry.expire_at_ms, /*lazy=*/true);
    erase(it);
    return nullptr;
  }
  entry.last_access_tick = ++access_tick_;
  return &entry;
}

bool Keyspace::expired_in_place(std::string_view key) const {
  auto it = data_.entries.find(key);
  return it != data_.entries.end() && it->second.expire_at_ms && now_ms_ > *it->second.expire_at_ms;
}

Entry& Keyspace::add(std::string_view key, Value value) {
  auto [it, inserted] = data_.entries.try_emplace(std::string(key));
  assert(inserted && "add() is only for absent keys");
  (void)inserted;
  it->second.value = std::move(value);
  it->second.last_access_tick = ++access_tick_;
  emit(KeyEventKind::created, it->first);
  return it->second;
}

Entry& Keyspace::put(std::string_view key, Value value, bool keep_ttl) {
  Entry* existing = find(key);
  if (existing == nullptr) return add(key, std::move(value));
  existing->value = std::move(value);
  emit(KeyEventKind::overwritten, key);
  if (!keep_ttl && existing->expire_at_ms) {
    data_.deadlines.erase({*existing->expire_at_ms, std::string(key)});
    existing->expire_at_ms.reset();
    emit(KeyEventKind::expire_removed, key);
  }
  return *existing;
}

void Keyspace::modified(std::string_view key) { emit(KeyEventKind::modified, key); }

bool Keyspace::remove(std::string_view key) {
  if (find(key) == nullptr) return false;
  auto it = data_.entries.find(key);
  emit(KeyEventKind::deleted, it->first);
  erase(it);
  return true;
}

void Keyspace::set_expire(std::string_view key, std::int64_t expire_at_ms) {
  auto it = data_.entries.find(key);
  assert(it != data_.entries.end());
  if (it == data_.entries.end()) return;
  if (it->second.expire_at_ms) data_.deadlines.erase({*it->second.expire_at_ms, it->first});
  it->second.expire_at_ms = expire_at_ms;
  data_.deadlines.insert({expire_at_ms, it->first});
  emit(KeyEventKind::expire_set, it->first, expire_at_ms);
}

bool Keyspace::persist(std::string_view key) {
  auto it = data_.entries.find(key);
  if (it == data_.entries.end() || !it->second.expire_at_ms) return false;
  data_.deadlines.erase({*it->second.expire_at_ms, it->first});
  it->second.expire_at_ms.reset();
  emit(KeyEventKind::expire_removed, it->first);
  return true;
}

std::size_t Keyspace::expire_some(std::size_t limit) {
  std::size_t removed = 0;
  while (removed < limit && !data_.deadlines.empty()) {
    auto [deadline_ms, key] = *data_.deadlines.begin();
    if (!(now_ms_ > deadline_ms)) break;
    auto it = data_.entries.find(key);
    assert(it != data_.entries.end());
    emit(KeyEventKind::expired, it->first, deadline_ms, /*lazy=*/false);
    erase(it);
    ++removed;
  }
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
  if (data_.entries.empty() || policy == EvictionPolicy::noeviction) return false;
  Iterator victim = data_.entries.begin();
  if (policy == EvictionPolicy::allkeys_random) {
    std::advance(victim, static_cast<std::ptrdiff_t>(next_random() % data_.entries.size()));
  } else {
    // Exact LRU over the logical access counter; ties cannot happen (the counter is unique per access).
    for (auto it = data_.entries.begin(); it != data_.entries.end(); ++it) {
      if (it->second.last_access_tick < victim->second.last_access_tick) victim = it;
    }
  }
  emit(KeyEventKind::evicted, victim->first);
  erase(victim);
  return true;
}

bool Keyspace::evict(std::string_view key) {
  auto victim = data_.entries.find(std::string(key));
  if (victim == data_.entries.end()) return false;
  emit(KeyEventKind::evicted, victim->first);
  erase(victim);
  return true;
}

void Keyspace::clear() {
  // FLUSHALL reports each key as deleted, in key order, so the history explains where locks went.
  while (!data_.entries.empty()) {
    auto it = data_.entries.begin();
    emit(KeyEventKind::deleted, it->first);
    erase(it);
  }
}

}  // namespace lockcheck::mock
