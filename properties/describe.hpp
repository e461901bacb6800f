#pragma once
// Small wording helpers shared by the checkers, so causes read the same everywhere. Integer arithmetic only.
#include <cstdint>
#include <string>
#include <string_view>

namespace lockcheck::properties {

// 3200000 -> "3.2s", 1500 -> "0.0015s": true times as a reader wants them, without floating point.
std::string format_time_us(std::int64_t t_us);
// 450000 -> "450 ms", 1500 -> "1.5 ms": durations.
std::string format_duration_us(std::int64_t duration_us);
// Tokens are long random strings; the first 8 characters identify one in a message.
std::string short_token(std::string_view token);

}  // namespace lockcheck::properties
