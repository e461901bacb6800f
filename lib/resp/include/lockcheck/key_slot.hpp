#pragma once
// Redis Cluster's key -> hash slot mapping (CRC16/XMODEM of the key, or of its {hash tag}, mod 16384) and
// which arguments of a command are keys. Shared by the cluster-aware client (cluster_port.hpp) and the
// embedded mock's cluster mode, so both route a command to the same slot.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "lockcheck/reply.hpp"

namespace lockcheck {

inline constexpr int kClusterSlots = 16384;

// CRC16 as Redis Cluster uses it (poly 0x1021, init 0, no reflection): crc16("123456789") == 0x31C3.
std::uint16_t crc16_xmodem(std::string_view bytes);

// The slot of `key`: when the key has a '{' followed later by a '}' with at least one byte between them,
// only the bytes between the first '{' and the first '}' after it are hashed ("{user1}.a" and "{user1}.b"
// share a slot); "{}" hashes the whole key.
int key_hash_slot(std::string_view key);

// Indices of `command`'s key arguments, in order (empty for keyless commands such as PING, WAIT, SCRIPT):
// EVAL-family keys come from numkeys; other commands follow Redis 7.0's key specs for the commands locks use.
std::vector<std::size_t> command_key_indices(const Command& command);

// The one slot all of `command`'s keys hash to; nullopt for a keyless command; kCrossSlot when they differ.
inline constexpr int kCrossSlot = -1;
std::optional<int> command_slot(const Command& command);

}  // namespace lockcheck
