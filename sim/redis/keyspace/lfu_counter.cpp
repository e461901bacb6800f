#include "redis/keyspace/lfu_counter.hpp"

namespace lockcheck::mock {

std::uint16_t lfu_minutes(std::int64_t now_ms) {
  return static_cast<std::uint16_t>((now_ms / 1000 / 60) & 65535);
}

std::uint8_t lfu_decayed(LfuState state, std::uint16_t now_minutes, std::int64_t decay_minutes) {
  if (!state.stamped) return state.counter;
  // Elapsed minutes on the wrapping 16-bit clock, as LFUTimeElapsed counts them (a full wrap reads as 65535).
  const std::int64_t elapsed = now_minutes >= state.stamp_minutes ? now_minutes - state.stamp_minutes
                                                                  : 65535 - state.stamp_minutes + now_minutes;
  const std::int64_t periods = decay_minutes > 0 ? elapsed / decay_minutes : 0;
  if (periods == 0) return state.counter;
  return periods > state.counter ? 0 : static_cast<std::uint8_t>(state.counter - periods);
}

LfuState lfu_accessed(LfuState state, std::uint16_t now_minutes, const LfuSettings& settings, double random_unit) {
  std::uint8_t counter = lfu_decayed(state, now_minutes, settings.decay_minutes);
  if (counter < 255) {
    const double base = counter > kLfuInitialCounter ? counter - kLfuInitialCounter : 0;
    const double probability = 1.0 / (base * static_cast<double>(settings.log_factor) + 1);
    if (random_unit < probability) ++counter;
  }
  return LfuState{now_minutes, counter, true, state.counted_in_command};
}

}  // namespace lockcheck::mock
