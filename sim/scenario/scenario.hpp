#pragma once
// A scenario file (scenarios/*.toml, format in scenarios/README.md) parsed and checked: the simulator
// configuration, the seeds to run, and the verdict the file expects per property. Every problem in a file is
// reported as "path:line:column: message" so that a CI log points straight at the offending line.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "model/scenario.hpp"

namespace lockcheck::sim {

// The whole message, location included, is what(): callers print it as is.
class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads and parses a file; also checks that the script files of variant "script" exist and keep their contract,
// and that the file has an [expect] table. `server`, when not empty, replaces the file's `server` (the command
// line's --server) and is checked as if the file said it.
Scenario load_scenario(const std::string& path, std::string_view server = {});

// Parses text; `path_for_messages` prefixes errors, gives the default name (its stem) and the directory that
// script paths are relative to. Script files are not opened, and [expect] may be left out.
Scenario parse_scenario(std::string_view text, const std::string& path_for_messages);

}  // namespace lockcheck::sim
