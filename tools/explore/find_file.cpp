#include "find_file.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "model/meta_line.hpp"
#include "core/simulate.hpp"
#include "scenario/write_scenario.hpp"
#include "shrink.hpp"  // tools/shrink

namespace lockcheck::explore {
namespace {

std::string relative_to(const std::string& path, const std::string& directory) {
  if (path.empty()) return path;
  return std::filesystem::relative(path, std::filesystem::absolute(directory)).generic_string();
}

}  // namespace

std::string find_name(const Find& find) {
  return fmt::format("{}-{}{}{}", sim::variant_label(find.minimal.config), find.property,
                     find.clause.empty() ? "" : "-" + find.clause, find.own_bug ? "" : "-known-limit");
}

WrittenFind write_find(const Find& find, const sim::Scenario::Scripts& scripts, const std::string& directory) {
  sim::Scenario scenario;
  scenario.name = find_name(find);
  scenario.config = find.minimal.config;
  scenario.config.scenario = scenario.name;
  std::string schedule;
  for (const sim::FaultSpec& fault : scenario.config.faults) schedule += fmt::format("\n  {}", sim::describe(fault));
  scenario.description = fmt::format(
      "Found by lockcheck explore (run {}), shrunk to {} fault(s):{}\n{}: {}\n{}: {}", find.run, scenario.config.faults.size(),
      schedule.empty() ? " none" : schedule, find.selector(), find.verdict.cause,
      find.own_bug ? "The lock's own bug" : "A known limit of the fault model", find.decided_by);
  for (const std::string& sentence : find.story) scenario.description += "\n- " + sentence;
  scenario.seeds = {find.minimal.seed};
  scenario.expectations = {sim::Expectation{find.property, sim::Expectation::Expected::violated, 0}};
  scenario.scripts = {relative_to(scripts.acquire, directory), relative_to(scripts.release, directory),
                      relative_to(scripts.renew, directory)};

  WrittenFind written;
  std::filesystem::create_directories(directory);
  written.path = (std::filesystem::path(directory) / (scenario.name + ".toml")).generic_string();
  std::ofstream(written.path) << write_scenario(scenario);

  // Read back and run: the same history as the minimal plan's, and the violation.
  const sim::Scenario loaded = sim::load_scenario(written.path);
  const sim::RunResult from_file = sim::simulate(loaded.config, loaded.seeds.front());
  sim::RunConfig as_found = find.minimal.config;
  as_found.scenario = scenario.name;
  const sim::RunResult from_plan = sim::simulate(as_found, find.minimal.seed);
  if (from_file.history.hash() != from_plan.history.hash()) {
    written.problem = "the file's history differs from the minimal run's (a setting the file format cannot state)";
    return written;
  }
  written.reproduced = shrink::judge_history(properties::parse_history(from_file.history), find.selector()).violated();
  if (!written.reproduced) written.problem = "the file's run does not violate the property";
  return written;
}

WrittenFind replay_find(const std::string& path, Find find, const std::string& out_directory) {
  sim::Scenario loaded;
  try {
    loaded = sim::load_scenario(path);
  } catch (const std::exception& error) {
    return WrittenFind{path, false, fmt::format("it cannot be loaded: {}", error.what())};
  }
  if (loaded.seeds.size() != 1) return WrittenFind{path, false, fmt::format("it states {} seeds, a find one", loaded.seeds.size())};
  // Where it is first: a file that does not reproduce is named as it was given, and nothing is written for it.
  if (!shrink::judge_run(loaded.config, loaded.seeds.front(), find.selector()).violated()) {
    return WrittenFind{path, false, fmt::format("its run (seed {}) does not violate {}", loaded.seeds.front(), find.selector())};
  }
  if (out_directory.empty()) return WrittenFind{path, true, ""};
  find.minimal.config = loaded.config;
  find.minimal.seed = loaded.seeds.front();
  find.plan = find.minimal;
  return write_find(find, loaded.scripts, out_directory);
}

}  // namespace lockcheck::explore
