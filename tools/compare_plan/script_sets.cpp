#include "script_sets.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace lockcheck::compare {

std::vector<ScriptSet> parse_script_sets(const std::vector<std::string>& values) {
  std::vector<ScriptSet> sets;
  for (const std::string& value : values) {
    const std::size_t equals = value.find('=');
    if (equals == std::string::npos) {
      if (sets.empty()) sets.push_back(ScriptSet{});
      sets.back().paths.push_back(value);
      continue;
    }
    ScriptSet set{value.substr(0, equals), {value.substr(equals + 1)}};
    if (set.name.empty()) throw std::invalid_argument(fmt::format("--scripts {}: the set needs a name before '='", value));
    if (!sets.empty() && sets.front().name.empty()) {
      throw std::invalid_argument("--scripts: name every set (name=acquire.lua,release.lua[,renew.lua]) or none");
    }
    if (std::any_of(sets.begin(), sets.end(), [&](const ScriptSet& s) { return s.name == set.name; })) {
      throw std::invalid_argument(fmt::format("--scripts: two sets are named '{}'", set.name));
    }
    sets.push_back(std::move(set));
  }
  for (const ScriptSet& set : sets) {
    if (set.paths.size() < 2 || set.paths.size() > 3) {
      throw std::invalid_argument(fmt::format("--scripts {}wants acquire.lua,release.lua and optionally renew.lua, "
                                              "not {} file(s)", set.name.empty() ? "" : set.name + "=",
                                              set.paths.size()));
    }
  }
  return sets;
}

std::string script_set_row(const ScriptSet& set) { return set.paths.size() == 3 ? set.name + "+watchdog" : set.name; }

std::string script_sets_option(const std::vector<ScriptSet>& sets) {
  std::string out;
  for (const ScriptSet& set : sets) {
    out += fmt::format(" --scripts {}{}", set.name.empty() ? "" : set.name + "=", fmt::join(set.paths, ","));
  }
  return out;
}

}  // namespace lockcheck::compare
