#include "merge_explore_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "explore_report.hpp"
#include "find_file.hpp"
#include "merge_explore.hpp"

namespace lockcheck::cli {
namespace {

namespace fs = std::filesystem;

// The explore.json files a folder holds: its own, then those of its immediate sub-folders (a shard's
// explore-<lock>-seed-<seed>-shard-i-of-n/, a CI artifact's folder), sorted. One level only: a merge reads what
// it was pointed at. `skip`: the merge's own --out, left out of the scan so that merging again into the same
// place (`merge /results --out /results/merged`) does not read the last merge as one more search.
std::vector<fs::path> explore_files_in(const fs::path& folder, const std::string& skip = {}) {
  std::vector<fs::path> files;
  if (fs::is_regular_file(folder / explore::kExploreJsonName)) files.push_back(folder / explore::kExploreJsonName);
  std::vector<fs::path> below;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (!skip.empty() && fs::exists(skip) && fs::equivalent(entry.path(), skip)) continue;
    if (entry.is_directory() && fs::is_regular_file(entry.path() / explore::kExploreJsonName)) {
      below.push_back(entry.path() / explore::kExploreJsonName);
    }
  }
  std::sort(below.begin(), below.end());
  files.insert(files.end(), below.begin(), below.end());
  return files;
}

bool holds_compare_shards(const fs::path& folder) {
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.is_regular_file() && is_shard_file(entry.path())) return true;
  }
  return false;
}

bool is_explore_input(const std::string& input) {
  const fs::path path(input);
  if (!fs::exists(path)) throw std::invalid_argument(fmt::format("merge: {} does not exist", input));
  if (!fs::is_directory(path)) return explore::is_explore_json(read_merge_input(path));
  const bool explore_outputs = !explore_files_in(path).empty();
  if (explore_outputs && holds_compare_shards(path)) {
    throw std::invalid_argument(fmt::format("merge: {} holds both compare shards and explore outputs: merge one kind at a time",
                                            input));
  }
  return explore_outputs;
}

std::vector<explore::ExploreInput> read_inputs(const std::vector<std::string>& inputs, const std::string& out_dir) {
  std::vector<explore::ExploreInput> read;
  for (const std::string& input : inputs) {
    const fs::path path(input);
    const std::vector<fs::path> files = fs::is_directory(path) ? explore_files_in(path, out_dir) : std::vector<fs::path>{path};
    for (const fs::path& file : files) {
      const std::string source = file.generic_string();
      read.push_back(explore::ExploreInput{explore::parse_explore_json(read_merge_input(file), source), source,
                                           file.parent_path().generic_string()});
    }
  }
  return read;
}

// What a find says of itself, for its file's description when the merge writes it anew.
explore::Find find_of(const explore::FindRecord& record) {
  explore::Find find;
  find.property = record.property;
  find.own_bug = record.own_bug;
  find.run = record.run;
  find.decided_by = record.decided_by;
  find.story = record.story;
  find.verdict.property = record.property;
  find.verdict.cause = record.cause;
  return find;
}

std::vector<std::string> search_names(const std::vector<explore::SearchSettings>& searches) {
  std::vector<std::string> names;
  for (const explore::SearchSettings& search : searches) {
    names.push_back(search.shard_count > 1 ? fmt::format("seed {} shard {}/{}", search.seed, search.shard_index, search.shard_count)
                                           : fmt::format("seed {}", search.seed));
  }
  return names;
}

std::string searches_line(const std::vector<explore::SearchSettings>& searches) {
  return fmt::format("{}", fmt::join(search_names(searches), ", "));
}

}  // namespace

bool are_explore_outputs(const std::vector<std::string>& inputs) {
  std::string explore_input, compare_input;
  for (const std::string& input : inputs) {
    (is_explore_input(input) ? explore_input : compare_input) = input;
  }
  if (!explore_input.empty() && !compare_input.empty()) {
    throw std::invalid_argument(fmt::format("merge: {} is an explore output but {} is not: merge explore outputs and "
                                            "compare shards separately", explore_input, compare_input));
  }
  return !explore_input.empty();
}

int command_merge_explore(const MergeOptions& options) {
  if (!options.junit_path.empty()) throw std::invalid_argument("merge: --junit is for compare shards, not explore outputs");
  const std::vector<explore::ExploreInput> inputs = read_inputs(options.inputs, options.out_dir);
  const auto replay = [&](const explore::FindRecord& find, const explore::ExploreInput& input) {
    const explore::WrittenFind replayed =
        explore::replay_find(path_in(input.directory, find.file), find_of(find), options.out_dir);
    // Named relative to the merged explore.json, as explore names its finds: with --out a find that reproduces is
    // written anew there; one that does not is named where it is (nothing is written for it).
    const std::string file =
        options.out_dir.empty() ? replayed.path
                                : fs::absolute(replayed.path).lexically_relative(fs::absolute(options.out_dir)).generic_string();
    return explore::Replayed{replayed.reproduced, file, replayed.problem};
  };
  const explore::MergedExplore merged = explore::merge_explore(inputs, replay);
  std::fprintf(stderr, "merge: %zu explore output(s), %zu search(es): %s\n", inputs.size(), merged.document.searches.size(),
               searches_line(merged.document.searches).c_str());
  for (const std::string& warning : merged.warnings) std::fprintf(stderr, "lockcheck: merge: %s\n", warning.c_str());

  const ReportFiles files{options.out_dir, options.out_dir.empty() ? "kept" : "wrote", search_names(merged.document.searches)};
  bool own_bug = false, not_reproduced = false;
  for (const explore::LockRecord& lock : merged.document.locks) {
    const std::string header = fmt::format("merged: {} search(es), {} runs{}, {} events", merged.document.searches.size(),
                                           lock.runs,
                                           lock.corpus_loaded > 0 ? fmt::format(" ({} resumed from a corpus)", lock.corpus_loaded)
                                                                  : std::string(),
                                           lock.events);
    print_lock_report(lock, header, {}, files);
    for (const explore::FindRecord& find : lock.finds) own_bug = own_bug || find.reproduced;
    not_reproduced = not_reproduced || !lock.replay_failures.empty();
  }
  if (!options.out_dir.empty()) {
    fs::create_directories(options.out_dir);
    if (merged.document.locks.size() > 1) {
      const std::string path = path_in(options.out_dir, "profile.md");
      std::ofstream(path) << profile_markdown(merged.document.locks,
                                              fmt::format("`lockcheck merge` of {} search(es) ({})", merged.document.searches.size(),
                                                          searches_line(merged.document.searches)));
      std::printf("\nwrote %s\n", path.c_str());
    }
    const std::string path = path_in(options.out_dir, std::string(explore::kExploreJsonName));
    std::ofstream(path) << explore::explore_json(merged.document);
    std::printf("%swrote %s\n", merged.document.locks.size() > 1 ? "" : "\n", path.c_str());
  }
  if (not_reproduced) {
    std::fprintf(stderr, "lockcheck: merge: a find no longer reproduces from its file (NOT REPRODUCED above): a changed "
                         "lockcheck or lock, or nondeterminism\n");
    return 3;
  }
  return own_bug ? 1 : 0;
}

}  // namespace lockcheck::cli
