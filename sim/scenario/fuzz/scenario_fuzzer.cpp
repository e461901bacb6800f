// Fuzzes the scenario parser: any text must either parse or throw ScenarioError (with file:line:col).
// Any other exception, a crash, a leak or a hang is a bug. Running it: tools/README.md, "Hardening".
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "scenario/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)lockcheck::sim::parse_scenario(text, "fuzz.toml");
  } catch (const lockcheck::sim::ScenarioError&) {
    // A clean, located error: the expected outcome for most inputs.
  }
  return 0;
}
