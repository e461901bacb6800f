#include "shared_key_readers.hpp"

namespace lockcheck::properties {

SharedKeyReaders::SharedKeyReaders(const History& history) : leases_(history) {
  for (const Meta::DerivedKey& derived : history.meta.lock_keys) lock_of_[derived.key] = derived.lock;
}

void SharedKeyReaders::observe(const ServerEvent& event, const InFlight& in_flight) {
  std::pair<std::int64_t, std::string> id{event.node, event.key};
  const bool gone = event.event == ServerEventKind::deleted || event.event == ServerEventKind::expired ||
                    event.event == ServerEventKind::evicted || event.event == ServerEventKind::lost;
  if (gone) {
    readers_.erase(id);
    return;
  }
  if (event.event == ServerEventKind::created) readers_.erase(id);
  // Hashes listing their holders are judged per holder; a reader changing any other key joins it.
  if (event.by >= 0 && !event.holders && !event.replicated && in_flight.reading(event.by)) {
    readers_[id].insert(event.by);
  }
}

std::vector<SharedKeyReaders::Reader> SharedKeyReaders::others_still_reading(const ServerEvent& event) const {
  std::vector<Reader> still;
  auto it = readers_.find({event.node, event.key});
  if (it == readers_.end()) return still;
  for (std::int64_t reader : it->second) {
    if (reader == event.by) continue;
    std::int64_t end_us = leases_.lease_end_us(reader, lock_of(event.key), "", event.t);
    if (end_us > event.t) still.push_back({reader, end_us});
  }
  return still;
}

const std::string& SharedKeyReaders::lock_of(const std::string& key) const {
  auto it = lock_of_.find(key);
  return it != lock_of_.end() ? it->second : key;
}

}  // namespace lockcheck::properties
