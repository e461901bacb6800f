#pragma once
// The loader's message for a scenario text, as if read from scenarios/x.toml, or "no error".
#include <string>
#include <string_view>

#include "scenario/scenario.hpp"

namespace lockcheck::sim::testing {

inline std::string error_of(std::string_view text) {
  try {
    parse_scenario(text, "scenarios/x.toml");
  } catch (const ScenarioError& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace lockcheck::sim::testing
