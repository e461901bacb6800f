#pragma once
// SHA-1 as Redis uses it to name scripts (EVALSHA, SCRIPT LOAD, redis.sha1hex). Not for security.
#include <string>
#include <string_view>

namespace lockcheck {

// Lower-case hex digest of `data`, 40 characters.
std::string sha1_hex(std::string_view data);

}  // namespace lockcheck
