#pragma once
// Where one RESP2 message ends: what lets the fault proxy drop a whole command or a whole reply (request and
// reply loss) without tearing the byte stream.
#include <cstddef>
#include <string_view>

namespace lockcheck::redis_backend {

// The length of the complete RESP2 message at the start of `bytes`, or 0 while it is incomplete.
// Throws std::runtime_error on bytes that are not RESP2 (or nest deeper than 32 arrays).
std::size_t resp_frame_length(std::string_view bytes);

}  // namespace lockcheck::redis_backend
