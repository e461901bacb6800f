#include "compare_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "merge_explore_command.hpp"
#include "reports/compare_junit.hpp"
#include "reports/matrix_markdown.hpp"
#include "reports/report_html.hpp"
#include "reports/results_json.hpp"

namespace lockcheck::cli {
namespace {

void write_file(const std::filesystem::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  if (!out) throw std::runtime_error(fmt::format("cannot write {}", path.string()));
}

// The shard files an input names: the file itself, or a directory's compare-shard-*.json files (sorted).
std::vector<std::filesystem::path> shard_files(const std::string& input) {
  const std::filesystem::path path(input);
  if (!std::filesystem::is_directory(path)) {
    if (!std::filesystem::exists(path)) throw std::invalid_argument(fmt::format("merge: {} does not exist", input));
    return {path};
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(path)) {
    if (entry.is_regular_file() && is_shard_file(entry.path())) files.push_back(entry.path());
  }
  if (files.empty()) {
    throw std::invalid_argument(fmt::format("merge: {} holds no {}*.json file (written by `lockcheck compare --shard "
                                            "i/n --out DIR`)", input, reports::kShardFilePrefix));
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

std::string read_merge_input(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(fmt::format("merge: cannot read {}", path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool is_shard_file(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  return name.starts_with(reports::kShardFilePrefix) && name.ends_with(".json");
}

void write_comparison_files(const reports::Comparison& comparison, const std::string& out_dir,
                            const std::string& junit_path) {
  const std::string matrix = reports::matrix_markdown(comparison);
  if (out_dir.empty()) {
    std::fputs(matrix.c_str(), stdout);
  } else {
    const std::filesystem::path dir(out_dir);
    std::filesystem::create_directories(dir);
    write_file(dir / "matrix.md", matrix);
    write_file(dir / "report.html", reports::report_html(comparison));
    write_file(dir / "results.json", reports::results_json(comparison));
    const std::size_t runs = comparison.variants.size() * comparison.families.size() * comparison.seeds.size();
    std::printf("wrote %s, %s and %s: %zu cells, %zu runs, %zu counterexamples\n", (dir / "matrix.md").c_str(),
                (dir / "report.html").c_str(), (dir / "results.json").c_str(), comparison.cells.size(), runs,
                comparison.counterexamples.size());
  }
  if (!junit_path.empty()) write_file(junit_path, reports::compare_junit_xml(comparison));
}

std::string write_shard_file(const reports::ComparisonShard& shard, const std::string& out_dir) {
  const std::filesystem::path dir(out_dir);
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = dir / reports::shard_file_name(shard.index, shard.count);
  write_file(path, reports::shard_json(shard));
  return path.string();
}

int command_merge(const MergeOptions& options) {
  // One `merge` for both kinds of sharded output, told apart by content.
  if (are_explore_outputs(options.inputs)) return command_merge_explore(options);
  std::vector<reports::ComparisonShard> shards;
  std::vector<std::string> sources;
  for (const std::string& input : options.inputs) {
    for (const std::filesystem::path& file : shard_files(input)) {
      sources.push_back(file.string());
      shards.push_back(reports::parse_shard_json(read_merge_input(file), sources.back()));
    }
  }
  const reports::Comparison comparison = reports::merge_shards(shards, sources);
  int exit_code = 0;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    if (shards[i].exit_code == 0) continue;
    std::fprintf(stderr, "lockcheck: merge: the run of %s exited %d (see its notes)\n", sources[i].c_str(),
                 shards[i].exit_code);
    exit_code = std::max(exit_code, shards[i].exit_code);
  }
  std::fprintf(stderr, "merge: %zu shard(s) of `%s`\n", shards.size(), comparison.command.c_str());
  write_comparison_files(comparison, options.out_dir, options.junit_path);
  return exit_code;
}

}  // namespace lockcheck::cli
