#include "properties/script_contract.hpp"

#include <fmt/format.h>

namespace lockcheck::properties {

// The words script_lock.hpp's kScriptContractBroken puts in every breach; the checkers do not link the
// library, so a test (sim/test/script_contract_test.cpp) holds the two together.
constexpr std::string_view kBroken = "broke the lock script contract";

std::optional<ContractBreach> first_script_contract_breach(const History& history) {
  for (const Event& event : history.events) {
    const auto* op = std::get_if<Op>(&event);
    if (op != nullptr && op->detail.find(kBroken) != std::string::npos) {
      return ContractBreach{op->t, op->process, op->detail};
    }
  }
  return std::nullopt;
}

std::string describe(const ContractBreach& breach) {
  return fmt::format("t={:.3f} s, process {}: {}", static_cast<double>(breach.t) / 1e6, breach.process, breach.detail);
}

}  // namespace lockcheck::properties
