#include "client_run.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spawn.h>
#include <sys/wait.h>
#include <fcntl.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "properties/checkers.hpp"
#include "properties/exercise.hpp"
#include "scenario/write_scenario.hpp"

extern char** environ;

namespace lockcheck::explore {
namespace {

std::string toml_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string toml_strings(const std::vector<std::string>& words) {
  std::vector<std::string> quoted;
  for (const std::string& word : words) quoted.push_back(toml_string(word));
  return fmt::format("[{}]", fmt::join(quoted, ", "));
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The last `lines` lines of `text`, for an error message.
std::string tail(const std::string& text, std::size_t lines) {
  std::size_t at = text.size();
  for (std::size_t n = 0; n <= lines && at > 0; ++n) at = text.rfind('\n', at - 1) == std::string::npos ? 0 : text.rfind('\n', at - 1);
  return text.substr(at);
}

std::atomic<std::uint64_t> g_next_run{0};
std::atomic<std::uint64_t> g_judged{0};

}  // namespace

std::string client_scenario_text(const RunPlan& plan, const ClientSpec& client, const std::string& name,
                                 const std::vector<std::uint64_t>& seeds, const std::string& expect,
                                 const std::string& description) {
  sim::Scenario scenario;
  scenario.name = name;
  scenario.description = description;
  scenario.backend = "redis";
  scenario.config = plan.config;
  scenario.config.scenario = name;
  scenario.config.external = {};
  // Time 0 is the clients' readiness (PROTOCOL.md); a fault at 0 would be in place before a client started and
  // could stop its start-up (a library that connects at once dies on a cut link). Every fault comes at 1 ms or later.
  for (sim::FaultSpec& fault : scenario.config.faults) fault.at_us = std::max<std::int64_t>(fault.at_us, 1000);
  scenario.seeds = seeds.empty() ? std::vector<std::uint64_t>{plan.seed} : seeds;
  if (!expect.empty()) scenario.expectations = {sim::Expectation{expect, sim::Expectation::Expected::violated, 0}};
  else scenario.expects_none_because = "one run of lockcheck explore --client: the search reads its history, no verdict gates it";
  std::string text = sim::write_scenario(scenario);
  text += fmt::format("\n[client]\ncommand = {}\n", toml_strings(client.command));
  if (!client.keys.empty()) text += fmt::format("keys = {}\n", toml_strings(client.keys));
  return text;
}

std::uint64_t judged_runs_so_far() { return g_judged.load(); }

int run_process(const std::vector<std::string>& argv, const std::string& stdout_path, const std::string& stderr_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  for (const std::string& word : argv) args.push_back(const_cast<char*>(word.c_str()));
  args.push_back(nullptr);
  pid_t child = 0;
  const int failed = posix_spawn(&child, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (failed != 0) throw std::runtime_error(fmt::format("cannot start {}: {}", argv[0], std::strerror(failed)));
  int status = 0;
  // Bounded: the judge bounds its own run (its clients' reply bounds, its readiness bound).
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error(fmt::format("waitpid: {}", std::strerror(errno)));
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

ClientRunResult ClientRunner::run(const RunPlan& plan, const ClientSpec& client, std::uint64_t seed) const {
  const std::string file = fmt::format("{}/plan-{}.toml", work_dir_, g_next_run++);
  std::ofstream(file) << client_scenario_text(plan, client, "run", {seed}, "", "");
  ClientRunResult result = run_file(file, seed);
  std::error_code ignored;
  std::filesystem::remove(file, ignored);
  return result;
}

ClientRunResult ClientRunner::run_file(const std::string& file, std::uint64_t seed) const {
  const std::string stem = fmt::format("{}/run-{}", work_dir_, g_next_run++);
  const std::string out = stem + ".out", err = stem + ".err", histories = stem + "-history";
  ++g_judged;
  const int exit_code = run_process({lockcheck_, "judge", file, "--seed", std::to_string(seed), "--history-dir", histories}, out, err);
  std::string history_path;
  std::error_code no_directory;
  for (const auto& entry : std::filesystem::directory_iterator(histories, no_directory)) history_path = entry.path().string();
  const std::string report = read_text(out);
  ClientRunResult result;
  if (history_path.empty()) {
    const std::string why = fmt::format("lockcheck judge could not run the client (exit {}):\n{}{}", exit_code, tail(report, 6),
                                        tail(read_text(err), 12));
    throw std::runtime_error(why);
  }
  {
    std::ifstream in(history_path);
    result.history = properties::parse_history(in);
  }
  // The properties the backend could not observe in this run (the report's "unknown P: why" lines).
  std::vector<std::string> unobservable;
  std::istringstream lines(report);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("  unknown ")) {
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos) unobservable.push_back(line.substr(10, colon - 10));
    }
    if (line.starts_with("  HUNG: ")) result.hung = line.substr(8);
  }
  result.outcome.exercise = properties::exercise_of(result.history);
  for (auto& verdict : properties::check_all(result.history)) {
    const auto* known = std::find(std::begin(sim::kExpectableProperties), std::end(sim::kExpectableProperties), verdict.property);
    if (known == std::end(sim::kExpectableProperties)) continue;
    if (std::find(unobservable.begin(), unobservable.end(), verdict.property) != unobservable.end()) {
      verdict.outcome = properties::Outcome::unknown;
    }
    result.outcome.verdicts.push_back(std::move(verdict));
  }
  result.outcome.events = result.history.events.size();
  std::error_code ignored;
  for (const std::string& path : {out, err}) std::filesystem::remove(path, ignored);
  std::filesystem::remove_all(histories, ignored);
  return result;
}

}  // namespace lockcheck::explore
