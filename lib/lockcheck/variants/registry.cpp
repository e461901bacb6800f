#include "lockcheck/variants/registry.hpp"

#include <fmt/format.h>

#include "lockcheck/errors.hpp"
#include "lockcheck/variants/token_lock.hpp"

namespace lockcheck {

const std::vector<std::string>& variant_ids() {
  static const std::vector<std::string> ids = {"token"};
  return ids;
}

std::unique_ptr<LockAlgorithm> make_lock(const std::string& id, Port& port, Clock& clock, Entropy& entropy,
                                         const LockOptions& options) {
  if (id == "token") return std::make_unique<TokenLock>(port, clock, entropy, options);
  throw InvalidArgument(fmt::format("unknown lock variant '{}'; known: {}", id, fmt::join(variant_ids(), ", ")));
}

}  // namespace lockcheck
