#pragma once
// A find becomes a regression test: DIR/<lock>-<property>.toml with the minimal schedule, the seed and
// `[expect] <property> = "violated"`. The file is read back and run before it is reported, so a file explore
// hands out is one `lockcheck run` reproduces.
#include <string>

#include "explorer.hpp"
#include "scenario/scenario.hpp"

namespace lockcheck::explore {

struct WrittenFind {
  std::string path;
  bool reproduced = false;  // the file, loaded and run, shows the same history and the violation
  std::string problem;      // why not, when it does not
};

// `scripts`: the script variant's files (absolute), written relative to `directory`.
WrittenFind write_find(const Find& find, const sim::Scenario::Scripts& scripts, const std::string& directory);

// "<lock>-<property>", the lock named as reports name it (token, script+watchdog); "-known-limit" after a
// find the reference lock breaks too.
std::string find_name(const Find& find);

}  // namespace lockcheck::explore
