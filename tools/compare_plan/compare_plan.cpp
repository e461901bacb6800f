#include "compare_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "model/meta_line.hpp"
#include "core/user_scripts.hpp"
#include "fault_families.hpp"
#include "script_sets.hpp"
#include "lockcheck/variants/registry.hpp"
#include "split_command.hpp"

namespace lockcheck::compare {

using sim::RowVariant;
using sim::split_watchdog;
using sim::variant_base_config;
using sim::variant_needs_user_scripts;
namespace {

// The external clients' rows, "client:NAME", with the configuration each adds to the token variant's.
struct ClientRow {
  std::string row;
  sim::ExternalClientConfig external;
};

std::vector<ClientRow> client_rows(const CompareSelection& selection) {
  std::vector<ClientRow> rows;
  for (const std::string& entry : selection.clients) {
    const std::size_t equals = entry.find('=');
    if (equals == 0 || equals == std::string::npos || equals + 1 == entry.size()) {
      throw std::invalid_argument(fmt::format("--clients wants NAME=CMD ARGS, got '{}'", entry));
    }
    ClientRow row{"client:" + entry.substr(0, equals), {command_line::split_command(entry.substr(equals + 1)), {}}};
    for (const ClientRow& other : rows) {
      if (other.row == row.row) throw std::invalid_argument(fmt::format("--clients names '{}' twice", entry.substr(0, equals)));
    }
    rows.push_back(std::move(row));
  }
  for (const std::string& entry : selection.client_keys) {
    const std::size_t equals = entry.find('=');
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const ClientRow& r) {
      return equals != std::string::npos && r.row == "client:" + entry.substr(0, equals);
    });
    if (row == rows.end()) throw std::invalid_argument(fmt::format("--client-keys '{}' names no --clients entry (NAME=KEY[+KEY])", entry));
    std::string_view keys = std::string_view(entry).substr(equals + 1);
    // Bounded by the text: each round takes one key.
    while (!keys.empty()) {
      const std::size_t plus = keys.find('+');
      if (plus != 0) row->external.keys.emplace_back(keys.substr(0, plus));
      if (plus == std::string_view::npos) break;
      keys.remove_prefix(plus + 1);
    }
  }
  return rows;
}

std::vector<std::string> chosen_variants(const CompareSelection& selection, const std::vector<ScriptSet>& sets,
                                         std::vector<std::string>& notes) {
  const std::vector<std::string>& known = variant_ids();
  const bool named = !sets.empty() && !sets.front().name.empty();
  if (selection.variants.empty() && !named && !selection.clients.empty()) return {};  // the clients' rows only
  const bool have_scripts = !sets.empty() && !named;
  // A third file is the user's renew.lua: only then can a watchdog renew the script variant.
  const bool have_renew = have_scripts && sets.front().paths.size() >= 3;
  std::vector<std::string> rows;
  if (selection.variants.empty() && !named) {
    for (const std::string& id : known) {
      if (variant_needs_user_scripts(id) && !have_scripts) {
        notes.push_back(fmt::format("`{}` is skipped: it runs the user's own Lua scripts; compare them with "
                                    "`lockcheck compare --scripts acquire.lua,release.lua[,renew.lua]`.", id));
        continue;
      }
      rows.push_back(id);
      // The user's renew.lua runs only when something renews: a watchdog over the script, in its own row.
      if (variant_needs_user_scripts(id) && have_renew) rows.push_back(id + "+watchdog");
    }
    return rows;
  }
  for (const std::string& row : selection.variants) {
    const RowVariant variant = split_watchdog(row);
    if (std::find(known.begin(), known.end(), variant.id) == known.end()) {
      throw std::invalid_argument(fmt::format("unknown variant '{}'; known: {} (each also as <id>+watchdog where it "
                                              "can renew)", row, fmt::join(known, ", ")));
    }
    if (variant_needs_user_scripts(row) && named) {
      throw std::invalid_argument(fmt::format("variant '{}' with named --scripts sets: each set is its own row "
                                              "already; drop '{}' from --variants", row, row));
    }
    if (variant_needs_user_scripts(row) && !have_scripts) {
      throw std::invalid_argument(fmt::format("variant '{}' needs --scripts acquire.lua,release.lua{}", row,
                                              variant.watchdog ? ",renew.lua" : "[,renew.lua]"));
    }
    if (variant.watchdog) {
      if (const std::string refused = watchdog_refusal(variant.id, have_renew); !refused.empty()) {
        throw std::invalid_argument(fmt::format("variant '{}': a watchdog needs a variant that can renew: {}", row, refused));
      }
    }
    rows.push_back(row);
  }
  // A renew.lua that no row runs would be tested by nothing (issue 24, item 6): refuse it with the fix.
  const bool renew_runs = std::find(rows.begin(), rows.end(), "script+watchdog") != rows.end();
  if (have_renew && !renew_runs && std::find(rows.begin(), rows.end(), "script") != rows.end()) {
    throw std::invalid_argument(fmt::format("--scripts {}: no row runs this renew.lua (only a watchdog renews a "
                                            "script lock); add script+watchdog to --variants, or give two files",
                                            sets.front().paths[2]));
  }
  for (const ScriptSet& set : sets) {
    if (!named) break;
    if (std::find(known.begin(), known.end(), split_watchdog(set.name).id) != known.end()) {
      throw std::invalid_argument(fmt::format("--scripts {}=...: '{}' is a catalogue variant's id; name the set "
                                              "otherwise", set.name, set.name));
    }
    rows.push_back(script_set_row(set));
  }
  return rows;
}

}  // namespace

UserScripts read_scripts(const std::vector<std::string>& paths) {
  if (paths.size() < 2 || paths.size() > 3) {
    throw std::invalid_argument("--scripts wants acquire.lua,release.lua and optionally renew.lua");
  }
  std::string sources[3];
  for (std::size_t i = 0; i < paths.size(); ++i) {
    std::ifstream in(paths[i]);
    if (!in) throw std::invalid_argument(fmt::format("--scripts: cannot read {}", paths[i]));
    std::ostringstream text;
    text << in.rdbuf();
    sources[i] = text.str();
  }
  // The probe names each file by its path as given; errors and witnesses of a run by its name ("renew.lua:3"),
  // as a scenario file's [scripts] do.
  UserScripts probed{sources[0], sources[1], sources[2], paths[0], paths[1], paths.size() > 2 ? paths[2] : ""};
  if (const std::optional<sim::ScriptRefusal> refused = sim::check_user_scripts(probed)) {
    const std::size_t i = refused->which == "acquire" ? 0 : refused->which == "release" ? 1 : 2;
    throw std::invalid_argument(fmt::format("--scripts {} ({}): {}", refused->which, paths[i], refused->problem));
  }
  UserScripts scripts{sources[0], sources[1], sources[2]};
  const auto name = [](const std::string& path) { return std::filesystem::path(path).filename().string(); };
  scripts.acquire_name = name(paths[0]);
  scripts.release_name = name(paths[1]);
  if (paths.size() > 2) scripts.renew_name = name(paths[2]);
  return scripts;
}

namespace {

// The named set whose row is `row`, if any.
const ScriptSet* set_of_row(const std::vector<ScriptSet>& sets, const std::string& row) {
  for (const ScriptSet& set : sets) {
    if (!set.name.empty() && script_set_row(set) == row) return &set;
  }
  return nullptr;
}

}  // namespace

ComparePlan plan_comparison(const CompareSelection& selection) {
  ComparePlan plan;
  const std::vector<ScriptSet> sets = parse_script_sets(selection.script_paths);
  plan.variants = chosen_variants(selection, sets, plan.notes);
  const std::vector<ClientRow> clients = client_rows(selection);
  for (const ClientRow& client : clients) plan.variants.push_back(client.row);
  // A named set's row runs variant `script` (under the watchdog when it has a renew.lua) with its own files.
  std::map<std::string, UserScripts> named_scripts;
  std::optional<UserScripts> scripts;
  for (const ScriptSet& set : sets) {
    if (set.name.empty()) scripts = read_scripts(set.paths);
    else named_scripts.emplace(script_set_row(set), read_scripts(set.paths));
  }
  const auto base_config = [&](const std::string& row) {
    for (const ClientRow& client : clients) {
      if (client.row != row) continue;
      sim::RunConfig config = variant_base_config("token");
      config.external = client.external;
      return config;
    }
    if (!named_scripts.contains(row)) return variant_base_config(row);
    return variant_base_config(split_watchdog(row).watchdog ? "script+watchdog" : "script");
  };
  for (const std::string& variant : plan.variants) {
    reports::Workload workload = workload_of(base_config(variant));
    workload.variant = variant;  // a named set's row is called by its name
    plan.workloads.push_back(workload);
  }

  std::vector<std::string> family_ids = selection.families;
  if (family_ids.empty()) {
    for (const FaultFamily& family : fault_families()) family_ids.push_back(family.id);
  }
  for (const std::string& id : family_ids) {
    const FaultFamily& family = fault_family(id);  // throws for an unknown id
    plan.families.push_back(reports::FamilyInfo{family.id, family.title, family.description});
  }

  if (selection.seed) {
    plan.seeds = {*selection.seed};
  } else {
    for (std::uint64_t s = 1; s <= selection.runs; ++s) plan.seeds.push_back(s);
  }

  for (const std::string& variant : plan.variants) {
    for (const reports::FamilyInfo& info : plan.families) {
      PlannedCell cell{variant, info.id, {}};
      sim::Scenario& scenario = cell.scenario;
      scenario.name = fmt::format("{}--{}", variant, info.id);
      scenario.path = "compare:" + scenario.name;
      scenario.description = info.description;
      scenario.config = base_config(variant);
      if (auto named = named_scripts.find(variant); named != named_scripts.end()) {
        scenario.config.scripts = named->second;
      } else if (scripts && variant_needs_user_scripts(variant)) {
        scenario.config.scripts = *scripts;
      }
      fault_family(info.id).apply(scenario.config);
      scenario.config.scenario = scenario.name;
      scenario.seeds = plan.seeds;
      plan.cells.push_back(std::move(cell));
    }
  }
  return plan;
}

reports::Workload workload_of(const sim::RunConfig& config) {
  reports::Workload workload;
  workload.variant = sim::variant_label(config);  // the row's name: "script+watchdog" for a wrapped one
  workload.clients = static_cast<std::int64_t>(config.clients.size());
  workload.masters = static_cast<std::int64_t>(sim::master_nodes(config).size());
  workload.replicas = static_cast<std::int64_t>(config.nodes.size()) - workload.masters;
  workload.ttl_us = std::chrono::duration_cast<std::chrono::microseconds>(config.lock.ttl).count();
  workload.hold_min_us = config.workload.hold_min_us;
  workload.hold_max_us = config.workload.hold_max_us;
  workload.think_min_us = config.workload.think_min_us;
  workload.think_max_us = config.workload.think_max_us;
  workload.wait_us = config.workload.wait_us;
  workload.nest_every = config.workload.nest_every;
  workload.readers_ppm = config.workload.readers_ppm;
  workload.fencing = config.workload.fencing != sim::Fencing::off;
  workload.permits = config.workload.permits;
  workload.duration_us = config.duration_us;
  return workload;
}

std::string replay_command(const CompareSelection& selection, const std::string& variant, const std::string& family,
                           std::uint64_t seed) {
  const std::vector<ScriptSet> sets = parse_script_sets(selection.script_paths);
  // A named set's row is replayed with that set alone (no --variants: then only the named sets run).
  if (const ScriptSet* set = set_of_row(sets, variant)) {
    return fmt::format("lockcheck compare{} --faults {} --seed {} --history-dir .", script_sets_option({*set}), family,
                       seed);
  }
  const bool named = !sets.empty() && !sets.front().name.empty();
  return fmt::format("lockcheck compare --variants {} --faults {}{} --seed {} --history-dir .", variant, family,
                     named ? "" : script_sets_option(sets), seed);
}

std::string selection_command(const CompareSelection& selection) {
  std::string command = "lockcheck compare";
  if (!selection.variants.empty()) command += fmt::format(" --variants {}", fmt::join(selection.variants, ","));
  if (!selection.families.empty()) command += fmt::format(" --faults {}", fmt::join(selection.families, ","));
  command += script_sets_option(parse_script_sets(selection.script_paths));
  for (const std::string& client : selection.clients) command += fmt::format(" --clients '{}'", client);
  for (const std::string& keys : selection.client_keys) command += fmt::format(" --client-keys {}", keys);
  if (selection.seed) {
    command += fmt::format(" --seed {}", *selection.seed);
  } else if (selection.runs != CompareSelection{}.runs) {
    command += fmt::format(" --runs {}", selection.runs);
  }
  return command;
}

}  // namespace lockcheck::compare
