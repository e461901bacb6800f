#include "comparison_shard.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "results_json.hpp"

namespace lockcheck::reports {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kFormat = "lockcheck-compare-shard";
constexpr int kVersion = 2;  // 2: a property's non-gating diagnostic

// --- writing ---

Json verdict_json(const properties::Verdict& verdict) {
  return Json{{"property", verdict.property},
              {"outcome", std::string(properties::to_string(verdict.outcome))},
              {"summary", verdict.summary},
              {"witnesses", verdict.witnesses},
              {"cause", verdict.cause}};
}

Json progress_json(const properties::Progress& progress) {
  Json by_process = Json::array();
  for (const auto& [process, count] : progress.acquisitions_by_process) by_process.push_back(Json::array({process, count}));
  return Json{{"acquisitions", progress.acquisitions},
              {"acquire_attempts", progress.acquire_attempts},
              {"acquisitions_per_second", progress.acquisitions_per_second},
              {"wait_p50_us", progress.wait_p50_us},
              {"wait_p99_us", progress.wait_p99_us},
              {"acquisitions_by_process", by_process},
              {"starved_processes", progress.starved_processes}};
}

Json cell_json(const Cell& cell) {
  Json results = Json::array();
  for (const PropertyResult& result : cell.properties) {
    Json out{{"property", result.property},
             {"runs", result.runs},
             {"violated", result.violated},
             {"unknown", result.unknown},
             {"first_violation", verdict_json(result.first_violation)}};
    if (result.first_violating_seed) out["first_violating_seed"] = *result.first_violating_seed;
    if (result.runs_with_diagnostics > 0) {
      out["diagnostic"] = Json{{"runs", result.runs_with_diagnostics},
                               {"first_seed", result.first_diagnostic_seed.value_or(0)},
                               {"name", result.first_diagnostic_name},
                               {"first", result.first_diagnostic}};
    }
    results.push_back(std::move(out));
  }
  return Json{{"variant", cell.variant},
              {"family", cell.family},
              {"properties", results},
              {"progress", progress_json(cell.progress)},
              {"duration_us", cell.duration_us}};
}

Json mark_json(const Mark& mark) {
  return Json{{"t_us", mark.t_us}, {"kind", mark.kind}, {"label", mark.label}, {"witness", mark.witness}};
}

Json timeline_json(const Timeline& timeline) {
  Json lanes = Json::array();
  for (const Lane& lane : timeline.lanes) {
    Json spans = Json::array();
    for (const Span& span : lane.spans) {
      spans.push_back(Json{{"from_us", span.from_us},
                           {"to_us", span.to_us},
                           {"kind", span.kind},
                           {"owner", span.owner},
                           {"label", span.label}});
    }
    Json marks = Json::array();
    for (const Mark& mark : lane.marks) marks.push_back(mark_json(mark));
    lanes.push_back(Json{{"id", lane.id}, {"label", lane.label}, {"spans", spans}, {"marks", marks}});
  }
  Json global_marks = Json::array();
  for (const Mark& mark : timeline.global_marks) global_marks.push_back(mark_json(mark));
  Json highlights = Json::array();
  for (const Highlight& highlight : timeline.highlights) {
    highlights.push_back(
        Json{{"from_us", highlight.from_us}, {"to_us", highlight.to_us}, {"property", highlight.property}});
  }
  return Json{{"from_us", timeline.from_us},
              {"to_us", timeline.to_us},
              {"lanes", lanes},
              {"global_marks", global_marks},
              {"highlights", highlights}};
}

Json counterexample_json(const Counterexample& example) {
  Json violations = Json::array();
  for (const properties::Verdict& verdict : example.violations) violations.push_back(verdict_json(verdict));
  return Json{{"variant", example.variant},
              {"family", example.family},
              {"seed", example.seed},
              {"violations", violations},
              {"replay_command", example.replay_command},
              {"timeline", timeline_json(example.timeline)}};
}

// The part every shard of one comparison shares; merge compares it key by key.
Json frame_json(const Comparison& frame) {
  Json workloads = Json::array();
  for (const Workload& workload : frame.workloads) workloads.push_back(workload);  // results_json.hpp's to_json
  Json families = Json::array();
  for (const FamilyInfo& family : frame.families) {
    families.push_back(Json{{"id", family.id}, {"title", family.title}, {"description", family.description}});
  }
  return Json{{"command", frame.command},
              {"backend", frame.backend},
              {"seeds", frame.seeds},
              {"variants", frame.variants},
              {"workloads", workloads},
              {"families", families},
              {"notes", frame.notes}};
}

// --- reading ---

properties::Outcome outcome_from(const std::string& text) {
  for (const properties::Outcome outcome :
       {properties::Outcome::holds, properties::Outcome::violated, properties::Outcome::unknown}) {
    if (properties::to_string(outcome) == text) return outcome;
  }
  throw std::invalid_argument(fmt::format("unknown verdict outcome '{}'", text));
}

properties::Verdict verdict_from(const Json& in) {
  properties::Verdict verdict;
  verdict.property = in.at("property").get<std::string>();
  verdict.outcome = outcome_from(in.at("outcome").get<std::string>());
  verdict.summary = in.at("summary").get<std::string>();
  verdict.witnesses = in.at("witnesses").get<std::vector<std::int64_t>>();
  verdict.cause = in.at("cause").get<std::string>();
  return verdict;
}

properties::Progress progress_from(const Json& in) {
  properties::Progress progress;
  progress.acquisitions = in.at("acquisitions").get<std::int64_t>();
  progress.acquire_attempts = in.at("acquire_attempts").get<std::int64_t>();
  progress.acquisitions_per_second = in.at("acquisitions_per_second").get<std::int64_t>();
  progress.wait_p50_us = in.at("wait_p50_us").get<std::int64_t>();
  progress.wait_p99_us = in.at("wait_p99_us").get<std::int64_t>();
  for (const Json& pair : in.at("acquisitions_by_process")) {
    progress.acquisitions_by_process[pair.at(0).get<std::int64_t>()] = pair.at(1).get<std::int64_t>();
  }
  progress.starved_processes = in.at("starved_processes").get<std::vector<std::int64_t>>();
  return progress;
}

Cell cell_from(const Json& in) {
  Cell cell;
  cell.variant = in.at("variant").get<std::string>();
  cell.family = in.at("family").get<std::string>();
  for (const Json& item : in.at("properties")) {
    PropertyResult result;
    result.property = item.at("property").get<std::string>();
    result.runs = item.at("runs").get<std::int64_t>();
    result.violated = item.at("violated").get<std::int64_t>();
    result.unknown = item.at("unknown").get<std::int64_t>();
    result.first_violation = verdict_from(item.at("first_violation"));
    if (item.contains("first_violating_seed")) result.first_violating_seed = item.at("first_violating_seed").get<std::uint64_t>();
    if (item.contains("diagnostic")) {
      const Json& diagnostic = item.at("diagnostic");
      result.runs_with_diagnostics = diagnostic.at("runs").get<std::int64_t>();
      result.first_diagnostic_seed = diagnostic.at("first_seed").get<std::uint64_t>();
      result.first_diagnostic_name = diagnostic.at("name").get<std::string>();
      result.first_diagnostic = diagnostic.at("first").get<std::string>();
    }
    cell.properties.push_back(std::move(result));
  }
  cell.progress = progress_from(in.at("progress"));
  cell.duration_us = in.at("duration_us").get<std::int64_t>();
  return cell;
}

Mark mark_from(const Json& in) {
  return Mark{in.at("t_us").get<std::int64_t>(), in.at("kind").get<std::string>(), in.at("label").get<std::string>(),
              in.at("witness").get<bool>()};
}

Timeline timeline_from(const Json& in) {
  Timeline timeline;
  timeline.from_us = in.at("from_us").get<std::int64_t>();
  timeline.to_us = in.at("to_us").get<std::int64_t>();
  for (const Json& item : in.at("lanes")) {
    Lane lane{item.at("id").get<std::string>(), item.at("label").get<std::string>(), {}, {}};
    for (const Json& span : item.at("spans")) {
      lane.spans.push_back(Span{span.at("from_us").get<std::int64_t>(), span.at("to_us").get<std::int64_t>(),
                                span.at("kind").get<std::string>(), span.at("owner").get<std::int64_t>(),
                                span.at("label").get<std::string>()});
    }
    for (const Json& mark : item.at("marks")) lane.marks.push_back(mark_from(mark));
    timeline.lanes.push_back(std::move(lane));
  }
  for (const Json& mark : in.at("global_marks")) timeline.global_marks.push_back(mark_from(mark));
  for (const Json& item : in.at("highlights")) {
    timeline.highlights.push_back(Highlight{item.at("from_us").get<std::int64_t>(), item.at("to_us").get<std::int64_t>(),
                                            item.at("property").get<std::string>()});
  }
  return timeline;
}

Counterexample counterexample_from(const Json& in) {
  Counterexample example;
  example.variant = in.at("variant").get<std::string>();
  example.family = in.at("family").get<std::string>();
  example.seed = in.at("seed").get<std::uint64_t>();
  for (const Json& verdict : in.at("violations")) example.violations.push_back(verdict_from(verdict));
  example.replay_command = in.at("replay_command").get<std::string>();
  example.timeline = timeline_from(in.at("timeline"));
  return example;
}

Comparison frame_from(const Json& in) {
  Comparison frame;
  frame.command = in.at("command").get<std::string>();
  frame.backend = in.at("backend").get<std::string>();
  frame.seeds = in.at("seeds").get<std::vector<std::uint64_t>>();
  frame.variants = in.at("variants").get<std::vector<std::string>>();
  for (const Json& item : in.at("workloads")) {
    Workload workload;
    workload.variant = item.at("variant").get<std::string>();
    workload.clients = item.at("clients").get<std::int64_t>();
    workload.masters = item.at("masters").get<std::int64_t>();
    workload.replicas = item.at("replicas").get<std::int64_t>();
    workload.ttl_us = item.at("ttl_us").get<std::int64_t>();
    workload.hold_min_us = item.at("hold_min_us").get<std::int64_t>();
    workload.hold_max_us = item.at("hold_max_us").get<std::int64_t>();
    workload.think_min_us = item.at("think_min_us").get<std::int64_t>();
    workload.think_max_us = item.at("think_max_us").get<std::int64_t>();
    workload.wait_us = item.at("wait_us").get<std::int64_t>();
    workload.nest_every = item.at("nest_every").get<std::int64_t>();
    workload.readers_ppm = item.at("readers_ppm").get<std::int64_t>();
    workload.fencing = item.at("fencing").get<bool>();
    workload.permits = item.value("permits", std::int64_t{1});  // absent in shards written before semaphores
    workload.duration_us = item.at("duration_us").get<std::int64_t>();
    frame.workloads.push_back(std::move(workload));
  }
  for (const Json& family : in.at("families")) {
    frame.families.push_back(FamilyInfo{family.at("id").get<std::string>(), family.at("title").get<std::string>(),
                                        family.at("description").get<std::string>()});
  }
  frame.notes = in.at("notes").get<std::vector<std::string>>();
  return frame;
}

std::string shard_name(const ComparisonShard& shard) { return fmt::format("{}/{}", shard.index, shard.count); }

std::string shortened(const Json& value) {
  std::string text = value.dump();
  return text.size() > 120 ? text.substr(0, 117) + "..." : text;
}

// Throws when two shards' frames differ, naming the first field that does.
void check_same_comparison(const ComparisonShard& a, const std::string& source_a, const ComparisonShard& b,
                           const std::string& source_b) {
  if (a.count != b.count) {
    throw std::invalid_argument(fmt::format("{} is shard {} but {} is shard {}: shards of different splits",
                                            source_a, shard_name(a), source_b, shard_name(b)));
  }
  const Json frame_a = frame_json(a.frame), frame_b = frame_json(b.frame);
  for (const auto& [key, value] : frame_a.items()) {
    if (value == frame_b.at(key)) continue;
    throw std::invalid_argument(fmt::format("{} and {} are shards of different comparisons: they differ in {} ({} vs {})",
                                            source_a, source_b, key, shortened(value), shortened(frame_b.at(key))));
  }
}

}  // namespace

bool shard_runs_cell(std::size_t cell_index, std::size_t shard_index, std::size_t shard_count) {
  return shard_count == 0 || cell_index % shard_count == shard_index;
}

std::string shard_file_name(std::size_t index, std::size_t count) {
  return fmt::format("{}{}-of-{}.json", kShardFilePrefix, index, count);
}

std::string shard_json(const ComparisonShard& shard) {
  Json outcomes = Json::array();
  for (const CellOutcome& outcome : shard.outcomes) {
    Json counterexamples = Json::array();
    for (const Counterexample& example : outcome.counterexamples) counterexamples.push_back(counterexample_json(example));
    Json out{{"index", outcome.index}};
    if (outcome.cell) out["cell"] = cell_json(*outcome.cell);
    out["counterexamples"] = counterexamples;
    out["notes"] = outcome.notes;
    outcomes.push_back(std::move(out));
  }
  const Json out{{"format", kFormat},
                 {"version", kVersion},
                 {"shard", {{"index", shard.index}, {"count", shard.count}}},
                 {"exit_code", shard.exit_code},
                 {"comparison", frame_json(shard.frame)},
                 {"cells", outcomes}};
  return out.dump(1) + "\n";
}

ComparisonShard parse_shard_json(std::string_view text, const std::string& source) {
  try {
    const Json in = Json::parse(text);
    if (!in.is_object() || in.value("format", "") != kFormat) {
      throw std::invalid_argument(fmt::format("{}: not a shard file of `lockcheck compare --shard` (no \"format\": \"{}\")",
                                              source, kFormat));
    }
    if (in.at("version").get<int>() != kVersion) {
      throw std::invalid_argument(fmt::format("{}: shard file version {}, this lockcheck reads version {}", source,
                                              in.at("version").get<int>(), kVersion));
    }
    ComparisonShard shard;
    shard.index = in.at("shard").at("index").get<std::size_t>();
    shard.count = in.at("shard").at("count").get<std::size_t>();
    if (shard.count == 0 || shard.index >= shard.count) {
      throw std::invalid_argument(fmt::format("{}: bad shard {}/{}", source, shard.index, shard.count));
    }
    shard.exit_code = in.at("exit_code").get<int>();
    shard.frame = frame_from(in.at("comparison"));
    for (const Json& item : in.at("cells")) {
      CellOutcome outcome;
      outcome.index = item.at("index").get<std::size_t>();
      if (item.contains("cell")) outcome.cell = cell_from(item.at("cell"));
      for (const Json& example : item.at("counterexamples")) outcome.counterexamples.push_back(counterexample_from(example));
      outcome.notes = item.at("notes").get<std::vector<std::string>>();
      shard.outcomes.push_back(std::move(outcome));
    }
    return shard;
  } catch (const nlohmann::json::exception& error) {
    throw std::invalid_argument(fmt::format("{}: not a readable shard file: {}", source, error.what()));
  }
}

Comparison merge_shards(const std::vector<ComparisonShard>& shards, const std::vector<std::string>& sources) {
  if (shards.empty()) throw std::invalid_argument("merge: no shard files given");
  const auto source_of = [&](std::size_t i) { return i < sources.size() ? sources[i] : fmt::format("shard #{}", i + 1); };
  const ComparisonShard& first = shards.front();
  const std::size_t count = first.count;

  std::vector<std::optional<std::size_t>> given(count);  // shard index -> position in `shards`
  for (std::size_t i = 0; i < shards.size(); ++i) {
    check_same_comparison(first, source_of(0), shards[i], source_of(i));
    if (shards[i].index >= count) {
      throw std::invalid_argument(fmt::format("{}: bad shard {}", source_of(i), shard_name(shards[i])));
    }
    std::optional<std::size_t>& slot = given[shards[i].index];
    if (slot) {
      throw std::invalid_argument(fmt::format("shard {} is given twice: {} and {}", shard_name(shards[i]),
                                              source_of(*slot), source_of(i)));
    }
    slot = i;
  }
  std::vector<std::string> missing;
  for (std::size_t index = 0; index < count; ++index) {
    if (!given[index]) missing.push_back(fmt::format("{}/{}", index, count));
  }
  if (!missing.empty()) {
    throw std::invalid_argument(fmt::format("shard{} {} of this comparison {} missing (every shard 0/{} .. {}/{} is needed)",
                                            missing.size() == 1 ? "" : "s", fmt::join(missing, ", "),
                                            missing.size() == 1 ? "is" : "are", count, count - 1, count));
  }

  const Comparison& frame = first.frame;
  const std::size_t families = frame.families.size();
  const std::size_t cells = frame.variants.size() * families;
  std::vector<const CellOutcome*> outcomes(cells, nullptr);
  for (std::size_t i = 0; i < shards.size(); ++i) {
    for (const CellOutcome& outcome : shards[i].outcomes) {
      if (outcome.index >= cells) {
        throw std::invalid_argument(fmt::format("{}: cell {} does not exist ({} cells)", source_of(i), outcome.index, cells));
      }
      const std::string& variant = frame.variants[outcome.index / families];
      const std::string& family = frame.families[outcome.index % families].id;
      if (!shard_runs_cell(outcome.index, shards[i].index, count)) {
        throw std::invalid_argument(fmt::format("{}: `{}` under `{}` (cell {}) is not shard {}'s to run", source_of(i),
                                                variant, family, outcome.index, shard_name(shards[i])));
      }
      if (outcomes[outcome.index] != nullptr) {
        throw std::invalid_argument(fmt::format("`{}` under `{}` is in {} twice", variant, family, source_of(i)));
      }
      if (outcome.cell && (outcome.cell->variant != variant || outcome.cell->family != family)) {
        throw std::invalid_argument(fmt::format("{}: cell {} should be `{}` under `{}`, not `{}` under `{}`", source_of(i),
                                                outcome.index, variant, family, outcome.cell->variant,
                                                outcome.cell->family));
      }
      outcomes[outcome.index] = &outcome;
    }
  }

  Comparison comparison = frame;
  comparison.cells.clear();
  comparison.counterexamples.clear();
  for (std::size_t index = 0; index < cells; ++index) {
    const CellOutcome* outcome = outcomes[index];
    if (outcome == nullptr) {
      throw std::invalid_argument(fmt::format("`{}` under `{}` is missing from {} (shard {}/{})",
                                              frame.variants[index / families], frame.families[index % families].id,
                                              source_of(*given[index % count]), index % count, count));
    }
    if (outcome->cell) comparison.cells.push_back(*outcome->cell);
    comparison.counterexamples.insert(comparison.counterexamples.end(), outcome->counterexamples.begin(),
                                      outcome->counterexamples.end());
    comparison.notes.insert(comparison.notes.end(), outcome->notes.begin(), outcome->notes.end());
  }
  return comparison;
}

}  // namespace lockcheck::reports
