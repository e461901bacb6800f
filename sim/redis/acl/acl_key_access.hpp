#pragma once
// What a command does to each of its keys, from its row (CommandSpec::key_access: Redis 7.0.15's key specs):
// whether it reads the key's value (ACCESS, needs %R) and whether it changes it (INSERT/DELETE/UPDATE, needs %W).
// ACL key checks use it.
#include <cstdint>
#include <string_view>
#include <vector>

#include "lockcheck/reply.hpp"

namespace lockcheck::mock {

enum KeyAccess : std::uint8_t { kKeyRead = 1u << 0, kKeyWrite = 1u << 1 };

struct KeyUse {
  std::size_t index;      // into the command's arguments (0 = the command name)
  std::uint8_t access;    // KeyAccess bits; 0 = neither (EXISTS, TYPE: the key is only mentioned)
};

// The keys `args` names, in order, with what the command does to each (a command Redis gives no key specs
// has none).
std::vector<KeyUse> key_uses(const Command& args);

}  // namespace lockcheck::mock
