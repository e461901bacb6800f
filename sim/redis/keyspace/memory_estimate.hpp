#pragma once
// The mock's estimate of a key's memory: the figure INFO used_memory sums and MEMORY USAGE answers. Not
// Redis's allocator sizes (README, known differences); monotone in the key's size, which is what limits need.
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <variant>

#include "redis/keyspace/value.hpp"

namespace lockcheck::mock {

inline std::int64_t key_memory_bytes(std::string_view key, const Value& value) {
  constexpr std::int64_t kPerKey = 72;  // dict entry + key sds + object header, roughly
  constexpr std::int64_t kPerElement = 48;
  const std::int64_t value_bytes = std::visit(
      [](const auto& held) -> std::int64_t {
        using Held = std::decay_t<decltype(held)>;
        if constexpr (std::is_same_v<Held, std::string>) return static_cast<std::int64_t>(held.size());
        else if constexpr (requires { held.size(); }) return static_cast<std::int64_t>(held.size()) * kPerElement;
        else return static_cast<std::int64_t>(held.score_of.size()) * kPerElement;
      },
      value);
  return kPerKey + static_cast<std::int64_t>(key.size()) + value_bytes;
}

}  // namespace lockcheck::mock
