#pragma once
// SHA-1 as Redis uses it to name scripts (EVALSHA, SCRIPT LOAD, redis.sha1hex). Not for security.
#include <string>
#include <string_view>

namespace lockcheck {

// Lower-case hex digest of `data`, 40 characters.
std::string sha1_hex(std::string_view data);

// sha1_hex, remembered per thread for the last few hundred bodies: a program that sends the same few scripts
// thousands of times (a simulated run's EVALs, a lock per client built per run) hashes each once. Bounded: the
// memory is forgotten whole when full (a fuzzer's bodies are all different), so the reference is good until the
// thread's next call.
const std::string& remembered_sha1_hex(std::string_view data);

}  // namespace lockcheck
