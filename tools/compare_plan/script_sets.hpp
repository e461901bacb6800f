#pragma once
// The user's scripts as `lockcheck compare --scripts` takes them: one unnamed set, `--scripts a.lua,r.lua[,n.lua]`
// (the `script` rows beside the catalogue), or named sets to put side by side, `--scripts good=a.lua,r.lua,n.lua
// --scripts candidate=a2.lua,r2.lua` (one row each, and no catalogue rows unless --variants names some).
#include <string>
#include <vector>

namespace lockcheck::compare {

struct ScriptSet {
  std::string name;                // "" for the unnamed set
  std::vector<std::string> paths;  // acquire, release, optional renew
};

// Parses the option's values as CLI11 hands them over (split at commas and concatenated over repetitions):
// "name=path" starts a named set, a bare path continues the set before it. Throws std::invalid_argument for
// a set without 2 or 3 files, an empty or repeated name, or named and unnamed sets mixed.
std::vector<ScriptSet> parse_script_sets(const std::vector<std::string>& values);

// The row a named set gets: its name, with "+watchdog" when it has a renew.lua (only a watchdog runs it).
std::string script_set_row(const ScriptSet& set);

// The option that gives `sets` again: " --scripts good=a.lua,r.lua --scripts ..." ("" for none).
std::string script_sets_option(const std::vector<ScriptSet>& sets);

}  // namespace lockcheck::compare
