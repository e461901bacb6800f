#include "compare_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/meta_line.hpp"
#include "core/user_scripts.hpp"
#include "fault_families.hpp"
#include "lockcheck/variants/registry.hpp"

namespace lockcheck::compare {
namespace {

std::vector<std::string> chosen_variants(const CompareSelection& selection, std::vector<std::string>& notes) {
  const std::vector<std::string>& known = variant_ids();
  const bool have_scripts = !selection.script_paths.empty();
  // A third file is the user's renew.lua: only then can a watchdog renew the script variant.
  const bool have_renew = selection.script_paths.size() >= 3;
  if (selection.variants.empty()) {
    std::vector<std::string> all;
    for (const std::string& id : known) {
      if (variant_needs_user_scripts(id) && !have_scripts) {
        notes.push_back(fmt::format("`{}` is skipped: it runs the user's own Lua scripts; compare them with "
                                    "`lockcheck compare --scripts acquire.lua,release.lua[,renew.lua]`.", id));
        continue;
      }
      all.push_back(id);
      // The user's renew.lua runs only when something renews: a watchdog over the script, in its own row.
      if (variant_needs_user_scripts(id) && have_renew) all.push_back(id + "+watchdog");
    }
    return all;
  }
  for (const std::string& row : selection.variants) {
    const RowVariant variant = split_watchdog(row);
    if (std::find(known.begin(), known.end(), variant.id) == known.end()) {
      throw std::invalid_argument(fmt::format("unknown variant '{}'; known: {} (each also as <id>+watchdog where it "
                                              "can renew)", row, fmt::join(known, ", ")));
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
  }
  return selection.variants;
}

}  // namespace

UserScripts read_scripts(const std::vector<std::string>& paths) {
  if (paths.size() < 2 || paths.size() > 3) {
    throw std::invalid_argument("--scripts wants acquire.lua,release.lua and optionally renew.lua");
  }
  static constexpr const char* kRoles[] = {"acquire", "release", "renew"};
  std::string sources[3];
  for (std::size_t i = 0; i < paths.size(); ++i) {
    std::ifstream in(paths[i]);
    if (!in) throw std::invalid_argument(fmt::format("--scripts: cannot read {}", paths[i]));
    std::ostringstream text;
    text << in.rdbuf();
    sources[i] = text.str();
    const std::string problem = sim::check_user_script(kRoles[i], sources[i]);
    if (!problem.empty()) throw std::invalid_argument(fmt::format("--scripts {} ({}): {}", kRoles[i], paths[i], problem));
  }
  return UserScripts{sources[0], sources[1], sources[2]};
}

namespace {

std::string scripts_option(const CompareSelection& selection) {
  return selection.script_paths.empty() ? "" : fmt::format(" --scripts {}", fmt::join(selection.script_paths, ","));
}

}  // namespace

ComparePlan plan_comparison(const CompareSelection& selection) {
  ComparePlan plan;
  plan.variants = chosen_variants(selection, plan.notes);
  for (const std::string& variant : plan.variants) plan.workloads.push_back(workload_of(variant_base_config(variant)));
  const std::optional<UserScripts> scripts =
      selection.script_paths.empty() ? std::nullopt : std::optional(read_scripts(selection.script_paths));

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
      scenario.config = variant_base_config(variant);
      if (scripts && variant_needs_user_scripts(variant)) scenario.config.scripts = *scripts;
      fault_family(info.id).apply(scenario.config);
      scenario.config.scenario = scenario.name;
      scenario.seeds = plan.seeds;
      plan.cells.push_back(std::move(cell));
    }
  }
  return plan;
}

reports::Workload workload_of(const sim::SimConfig& config) {
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
  workload.duration_us = config.duration_us;
  return workload;
}

std::string replay_command(const CompareSelection& selection, const std::string& variant, const std::string& family,
                           std::uint64_t seed) {
  return fmt::format("lockcheck compare --variants {} --faults {}{} --seed {} --history-dir .", variant, family,
                     scripts_option(selection), seed);
}

std::string selection_command(const CompareSelection& selection) {
  std::string command = "lockcheck compare";
  if (!selection.variants.empty()) command += fmt::format(" --variants {}", fmt::join(selection.variants, ","));
  if (!selection.families.empty()) command += fmt::format(" --faults {}", fmt::join(selection.families, ","));
  command += scripts_option(selection);
  if (selection.seed) {
    command += fmt::format(" --seed {}", *selection.seed);
  } else if (selection.runs != CompareSelection{}.runs) {
    command += fmt::format(" --runs {}", selection.runs);
  }
  return command;
}

}  // namespace lockcheck::compare
