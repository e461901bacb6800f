#include "corpus.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "model/prng.hpp"
#include "scenario/scenario.hpp"
#include "scenario/write_scenario.hpp"
#include "shard.hpp"

namespace lockcheck::explore {
namespace {

constexpr std::size_t kHashDigits = 16;

// Whether `file_name` is <lock>-<16 hex digits>.toml for this lock's safe name (exactly: "token" is not
// "token-wait").
bool is_corpus_file_of(const std::string& file_name, const std::string& safe_lock) {
  const std::string suffix = ".toml";
  if (file_name.size() != safe_lock.size() + 1 + kHashDigits + suffix.size()) return false;
  if (!file_name.starts_with(safe_lock + "-") || !file_name.ends_with(suffix)) return false;
  const std::string digits = file_name.substr(safe_lock.size() + 1, kHashDigits);
  return std::all_of(digits.begin(), digits.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

std::string corpus_text(const RunPlan& plan, const std::string& lock) {
  sim::Scenario scenario;
  scenario.name = lock + "-corpus";
  scenario.description = "A run lockcheck explore kept (it reached a mark, or a pair of marks, no earlier run had), "
                         "for a later `lockcheck explore --corpus` to resume from.";
  // A run, not a claim: `lockcheck run` and `replay` take it (they want [expect]), and it gates nothing.
  scenario.expects_none_because = "a corpus run of lockcheck explore: it states a run, not a claim";
  scenario.config = plan.config;
  scenario.config.scenario = scenario.name;
  scenario.seeds = {plan.seed};
  // By file name: the loading search runs its own scripts (corpus.hpp).
  const lockcheck::UserScripts& scripts = plan.config.scripts;
  if (plan.config.variant == "script") {
    scenario.scripts = {scripts.acquire_name, scripts.release_name, scripts.renew.empty() ? "" : scripts.renew_name};
  }
  return sim::write_scenario(scenario);
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) throw std::invalid_argument(fmt::format("--corpus: cannot read {}", path.generic_string()));
  return text.str();
}

}  // namespace

std::string corpus_file_name(const std::string& lock, const std::string& text) {
  // derive_seed is FNV-1a of the text, mixed: a content hash, stable on every machine.
  return fmt::format("{}-{:016x}.toml", file_safe(lock), sim::derive_seed(0, text));
}

CorpusWritten write_corpus(const std::vector<RunPlan>& runs, const std::string& lock, const std::string& directory) {
  CorpusWritten outcome;
  std::filesystem::create_directories(directory);
  for (const RunPlan& plan : runs) {
    std::string text;
    try {
      text = corpus_text(plan, lock);
    } catch (const std::invalid_argument& unstated) {
      outcome.problems.push_back(fmt::format("a kept run (seed {}) is not written: {}", plan.seed, unstated.what()));
      continue;
    }
    const std::filesystem::path path = std::filesystem::path(directory) / corpus_file_name(lock, text);
    if (std::filesystem::exists(path)) {
      ++outcome.present;
      continue;
    }
    // The temporary name is this process's own: two shards writing the same run each rename a whole file.
    const std::filesystem::path temporary = path.string() + fmt::format(".tmp-{}", static_cast<long>(::getpid()));
    {
      std::ofstream out(temporary, std::ios::binary);
      out << text;
      if (!out) throw std::runtime_error(fmt::format("--corpus: cannot write {}", temporary.generic_string()));
    }
    std::filesystem::rename(temporary, path);
    ++outcome.written;
  }
  return outcome;
}

CorpusLoaded load_corpus(const std::string& directory, const std::string& lock, const sim::RunConfig& base) {
  CorpusLoaded loaded;
  if (!std::filesystem::is_directory(directory)) return loaded;
  const std::string safe_lock = file_safe(lock);
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    if (entry.is_regular_file() && is_corpus_file_of(entry.path().filename().string(), safe_lock)) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  if (files.size() > kMaxCorpusRuns) {
    loaded.left_out = files.size() - kMaxCorpusRuns;
    files.resize(kMaxCorpusRuns);
  }
  for (const std::filesystem::path& file : files) {
    const std::string source = file.generic_string();
    sim::Scenario scenario;
    try {
      // parse, not load: the script files it names need not be beside it (the search's own scripts run).
      scenario = sim::parse_scenario(read_text(file), source);
    } catch (const sim::ScenarioError& error) {
      // The error names the file, line and column.
      throw std::invalid_argument(fmt::format("--corpus: not a readable corpus file: {} (explore writes them; remove the "
                                              "file to go on)", error.what()));
    }
    if (scenario.config.variant != base.variant) {
      throw std::invalid_argument(fmt::format("--corpus: {} is a run of variant '{}', not of '{}' this search explores "
                                              "(its name says lock '{}'; remove the file to go on)",
                                              source, scenario.config.variant, base.variant, lock));
    }
    if (scenario.seeds.size() != 1) {
      throw std::invalid_argument(fmt::format("--corpus: {} states {} seeds; a corpus file is one run (one seed)", source,
                                              scenario.seeds.size()));
    }
    RunPlan plan;
    plan.config = scenario.config;
    plan.config.scripts = base.scripts;
    plan.config.scenario = base.scenario;
    plan.seed = scenario.seeds.front();
    loaded.runs.push_back(std::move(plan));
  }
  return loaded;
}

}  // namespace lockcheck::explore
