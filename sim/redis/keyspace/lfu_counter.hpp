#pragma once
// Redis 7.0's LFU access counter (evict.c), kept per key while the maxmemory policy is an LFU one: an 8-bit
// logarithmic counter and the minute (16 bits, wrapping) it was last decayed at. Reads decay it by one per
// lfu-decay-time minutes; an access then raises it with probability 1 / ((counter - 5) * lfu-log-factor + 1),
// so a counter of 255 stands for about a million hits at the default factor 10.
#include <cstdint>

namespace lockcheck::mock {

inline constexpr std::uint8_t kLfuInitialCounter = 5;  // LFU_INIT_VAL: a new key is not the first to go

struct LfuSettings {
  bool enabled = false;             // the policy is allkeys-lfu or volatile-lfu
  std::int64_t log_factor = 10;     // lfu-log-factor
  std::int64_t decay_minutes = 1;   // lfu-decay-time; 0: never decays
};

struct LfuState {
  std::uint16_t stamp_minutes = 0;  // Unix minutes mod 65536 at the last access
  std::uint8_t counter = kLfuInitialCounter;
  // False for a key created while the policy was not LFU: it reads as new (Redis would read its LRU clock bits
  // as LFU data, which no mock can reproduce).
  bool stamped = false;
  // The command that last counted an access: a command counts one access per key however often the mock looks
  // the key up (Redis looks it up once).
  std::uint32_t counted_in_command = 0;
};

// Unix minutes mod 65536, the clock the stamp is read against.
std::uint16_t lfu_minutes(std::int64_t now_ms);
// The counter after its idle periods are taken off (what OBJECT FREQ answers; what eviction compares).
std::uint8_t lfu_decayed(LfuState state, std::uint16_t now_minutes, std::int64_t decay_minutes);
// One access: decay, then the probabilistic increment; `random_unit` is a draw in [0, 1) from the node's source.
LfuState lfu_accessed(LfuState state, std::uint16_t now_minutes, const LfuSettings& settings, double random_unit);

}  // namespace lockcheck::mock
