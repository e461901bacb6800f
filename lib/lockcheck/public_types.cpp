#include "lockcheck/public_types.hpp"

#include <algorithm>

namespace lockcheck {

const std::vector<PublicType>& public_types() {
  static const std::vector<PublicType> types = {
      {"token", "Mutex", {}},
      {"fenced", "FencedMutex", {}},
      {"token-wait", "ReplicatedMutex", {}},
      {"redlock", "RedlockMutex", {}},
      {"redisson-like", "RedissonMutex", {.reentrant = true}},
      {"rw-owned", "SharedMutex", {}},
  };
  return types;
}

const PublicType* public_type_of(std::string_view variant) {
  const auto& types = public_types();
  const auto found = std::find_if(types.begin(), types.end(), [&](const PublicType& type) { return type.variant == variant; });
  return found == types.end() ? nullptr : &*found;
}

}  // namespace lockcheck
