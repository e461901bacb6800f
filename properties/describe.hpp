#pragma once
// Small wording helpers shared by the checkers, so causes read the same everywhere. Integer arithmetic only.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace lockcheck::properties {

// 3200000 -> "3.2s", 1500 -> "0.0015s": true times as a reader wants them, without floating point.
std::string format_time_us(std::int64_t t_us);
// 450000 -> "450 ms", 1500 -> "1.5 ms": durations.
std::string format_duration_us(std::int64_t duration_us);
// A token in a message: whole when it is short (up to 16 characters: a timestamp, a judged client's "p0-0-1"),
// else its first 8 characters, which identify a random token.
std::string short_token(std::string_view token);
// Two tokens in one message, shortened so that they read apart: a library's tokens may share far more than 8
// characters (a client id and a counter), and are then shown up to where they differ.
std::pair<std::string, std::string> short_tokens(std::string_view a, std::string_view b);

}  // namespace lockcheck::properties
