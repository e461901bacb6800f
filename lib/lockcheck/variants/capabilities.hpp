#pragma once
// What each catalogue variant can do beyond acquire and release, by id: its row's columns (variant_row.hpp,
// variant_table.cpp). Scenario files are checked against it, so a setting that a variant would silently ignore (readers for a lock without a shared mode, fencing
// for a lock that hands out no token, ...) is refused where it is written instead of testing nothing.
#include <string>
#include <vector>

namespace lockcheck {

// Renews its own leases in the background: watchdog, watchdog-unchecked, client-reentrant, redisson-like.
bool renews_in_background(const std::string& id);
// Has acquire_shared (readers): rw-owned, rw-two-keys, rw-hash-timestamps.
bool has_shared_mode(const std::string& id);
// Hands out an increasing fencing token with each lease: fenced.
bool hands_out_fencing_tokens(const std::string& id);
// A semaphore: up to `permits` holders at once (redisson-semaphore).
bool counts_permits(const std::string& id);
// A count-down latch, counted down and awaited instead of acquired (redisson-latch, latch).
bool counts_down(const std::string& id);
// A fair lock: waiters granted in arrival order (redisson-fair, fair).
bool grants_in_order(const std::string& id);
// A holder may acquire its own lock again: reentrant-hash, reentrant-maxttl, appid-thread, client-reentrant,
// redisson-like.
bool is_reentrant(const std::string& id);

// The ids for which `has` is true, in catalogue order: for messages that name the alternatives.
std::vector<std::string> variants_where(bool (*has)(const std::string&));

}  // namespace lockcheck
