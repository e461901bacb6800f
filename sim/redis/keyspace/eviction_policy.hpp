#pragma once
// Which key a full node evicts (maxmemory-policy): what a scenario's [topology] names, without the keyspace.
#include <cstdint>

namespace lockcheck::mock {

enum class EvictionPolicy : std::uint8_t { noeviction, allkeys_random, allkeys_lru, allkeys_lfu, volatile_lfu };

}  // namespace lockcheck::mock
