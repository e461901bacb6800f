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

// A find file written earlier (by a shard, by last night's search) loaded and run once more, as `lockcheck merge`
// keeps it: run where it is, then, when it reproduces and with `out_directory`, written there anew by write_find
// (its scripts named relative to the new place, and the new file run too). `find` says what it found (its property, its tier, the words
// of its description); its schedule, workload and seed are the file's. A file that cannot be loaded does not
// reproduce: `problem` says why.
WrittenFind replay_find(const std::string& path, Find find, const std::string& out_directory);

// "<lock>-<property>", the lock named as reports name it (token, script+watchdog); "-known-limit" after a
// find the reference lock breaks too.
std::string find_name(const Find& find);

}  // namespace lockcheck::explore
