// Entry points: text -> TOML -> checked Scenario. The readers run in dependency order (topology before
// faults, variant before scripts) so that each check can rely on what is already known.
#include "scenario/scenario.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "scenario/readers.hpp"

namespace lockcheck::sim {
namespace {

using scenario_detail::Section;

Scenario parse(std::string_view text, const std::string& path, bool check_files, std::string_view server = {}) {
  toml::table table;
  try {
    table = toml::parse(text, std::string_view(path));
  } catch (const toml::parse_error& error) {
    scenario_detail::fail(path, error.source(), std::string(error.description()));
  }
  const Section top(table, path);
  top.allow_only({"name", "description", "backend", "server", "variant", "reference", "duration_ms", "seeds", "seed", "seed_list",
                  "command_timeout_ms", "active_expiry_interval_ms", "max_events", "[lock]", "[clients]",
                  "[[nodes]]", "[cluster]", "[sentinel]", "[network]", "[workload]", "[[faults]]", "[nemesis]", "[scripts]", "[token_wait]", "[client]", "[expect]"});
  Scenario out;
  out.path = path;
  const std::filesystem::path file(path);
  const std::string stem = file.stem().string();
  scenario_detail::read_run(top, out, stem.empty() ? "unnamed" : stem);
  scenario_detail::read_seeds(top, out.seeds);
  scenario_detail::read_lock(top, out.config.lock, out.config.renewal);
  scenario_detail::read_clients(top, out.config.clients);
  scenario_detail::read_nodes(top, out.config.nodes);
  scenario_detail::read_cluster(top, out.config);
  scenario_detail::read_sentinel(top, out.config);
  scenario_detail::read_network(top, out.config);
  scenario_detail::read_workload(top, out.config.workload);
  scenario_detail::check_threads(top, out);
  scenario_detail::read_faults(top, out.config);
  scenario_detail::read_nemesis(top, out.config.nemesis);
  scenario_detail::read_scripts(top, out.config.variant, file.parent_path(), check_files, out.scripts,
                                out.config.scripts);
  scenario_detail::check_watchdog(top, out.config.variant, out.scripts, out.config.renewal);
  scenario_detail::read_token_wait(top, out.config.variant, out.config.lock, out.config.token_wait);
  scenario_detail::read_client(top, out);
  scenario_detail::read_expectations(top, check_files, out.expectations, out.expects_none_because);
  scenario_detail::check_settings_apply(top, out);
  scenario_detail::read_server(top, out, server);
  return out;
}

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& path_for_messages) {
  return parse(text, path_for_messages, false);
}

Scenario load_scenario(const std::string& path, std::string_view server) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(fmt::format("{}: cannot open the scenario file", path));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ScenarioError(fmt::format("{}: cannot read the scenario file", path));
  return parse(text.str(), path, true, server);
}

}  // namespace lockcheck::sim
