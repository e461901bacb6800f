#pragma once
// Which public RAII type serves which catalogue variant, and how that type configures the OwnedLock core its
// threads share. The simulator runs a variant through its public type (several threads per client process
// sharing one core, as a service's threads share one Mutex) only through this table, so what it tests is
// what the types do; variants without a public type are the broken ones (lockcheck::broken), kept for study.
// Each type is declared in its variant's row (variants/variant_table.cpp); this is that column, read off.
#include <string_view>
#include <vector>

#include "lockcheck/owned_lock.hpp"

namespace lockcheck {

struct PublicType {
  std::string_view variant;  // the catalogue id (variants/registry.hpp)
  std::string_view name;     // the C++ type users link, e.g. "Mutex"
  OwnedLockOptions owned;    // what the type asks of its core (RedissonMutex: reentrant per thread)
};

// In catalogue order.
const std::vector<PublicType>& public_types();
// The type serving `variant`; nullptr when it has none.
const PublicType* public_type_of(std::string_view variant);

}  // namespace lockcheck
