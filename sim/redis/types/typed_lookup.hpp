#pragma once
// Looking a key up as one value type, the first step of every type-specific command.
#include <string_view>

#include "redis/keyspace/keyspace.hpp"

namespace lockcheck::mock {

// The value of `key` if it holds a T; nullptr when absent or (wrong_type set) when it holds another type.
template <typename T>
T* find_typed(Keyspace& keys, std::string_view key, bool& wrong_type) {
  wrong_type = false;
  Entry* entry = keys.find(key);
  if (entry == nullptr) return nullptr;
  T* value = std::get_if<T>(&entry->value);
  wrong_type = value == nullptr;
  return value;
}

}  // namespace lockcheck::mock
