#pragma once
// Readers' keys without per-holder fields (rw-two-keys' "<key>:read" counts its readers): who joined each
// one, and which of them still held a read lease when a reader removed it. One reader deleting it frees
// every other reader's hold too (F18); owner_only_release flags the delete, mutual_exclusion_server the
// writer that then gets in while those readers are still entitled.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "beliefs.hpp"
#include "history.hpp"
#include "history_facts.hpp"

namespace lockcheck::properties {

class SharedKeyReaders {
 public:
  explicit SharedKeyReaders(const History& history);

  // Call for every server event on a lock key, after InFlight saw the ops before it.
  void observe(const ServerEvent& event, const InFlight& in_flight);

  struct Reader {
    std::int64_t process = 0;
    std::int64_t lease_end_us = 0;
  };
  // Readers other than the event's process whose read lease still runs at the event (call before observe).
  std::vector<Reader> others_still_reading(const ServerEvent& event) const;

  // The key client ops name for a server key (a derived key's lock; else the key itself).
  const std::string& lock_of(const std::string& key) const;

 private:
  std::map<std::pair<std::int64_t, std::string>, std::set<std::int64_t>> readers_;  // (node, key) -> joined
  std::map<std::string, std::string> lock_of_;
  OwnerLeases leases_;
};

}  // namespace lockcheck::properties
