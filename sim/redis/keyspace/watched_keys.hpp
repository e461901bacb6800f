#pragma once
// WATCH's bookkeeping: change counters for the keys some client watches, so EXEC can tell whether a watched
// key changed since WATCH. Counting (not client pointers) keeps sessions free to move or vanish.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace lockcheck::mock {

struct WatchCounters {
  std::size_t watchers = 0;
  std::uint64_t changes = 0;              // every event on the key
  std::uint64_t non_expiry_changes = 0;   // all but the reclaiming of an expired key
};

class WatchedKeys {
 public:
  // Starts (or joins) watching key; returns its counters as of now.
  WatchCounters watch(std::string_view key) {
    auto it = counters_.try_emplace(std::string(key)).first;
    ++it->second.watchers;
    return it->second;
  }
  void unwatch(std::string_view key) {
    auto it = counters_.find(key);
    if (it != counters_.end() && --it->second.watchers == 0) counters_.erase(it);
  }
  WatchCounters counters(std::string_view key) const {
    auto it = counters_.find(key);
    return it == counters_.end() ? WatchCounters{} : it->second;
  }
  // Any key event; `expiry` when the event is an expired key being reclaimed.
  void changed(std::string_view key, bool expiry) {
    if (counters_.empty()) return;
    auto it = counters_.find(key);
    if (it == counters_.end()) return;
    ++it->second.changes;
    if (!expiry) ++it->second.non_expiry_changes;
  }
  // Counts a change on every watched key for which pred(key) holds (SWAPDB).
  template <typename Pred>
  void touch_if(Pred pred) {
    for (auto& [key, counters] : counters_) {
      if (!pred(key)) continue;
      ++counters.changes;
      ++counters.non_expiry_changes;
    }
  }

 private:
  std::map<std::string, WatchCounters, std::less<>> counters_;
};

}  // namespace lockcheck::mock
