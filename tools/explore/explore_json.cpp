#include "explore_json.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace lockcheck::explore {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kFormat = "lockcheck-explore";
constexpr int kVersion = 1;

// --- writing ---

Json settings_json(const SearchSettings& search) {
  return Json{{"locks", search.locks},
              {"seed", search.seed},
              {"shard", {{"index", search.shard_index}, {"count", search.shard_count}}},
              {"budget", {{"runs", search.budget_runs}, {"seconds", search.budget_seconds}}},
              {"strategy", search.strategy},
              {"without", search.without},
              {"reference", search.reference},
              {"property", search.property},
              {"all_properties", search.all_properties},
              {"corpus_loaded", search.corpus_loaded}};
}

Json find_json(const FindRecord& find, bool limit) {
  Json out{{"property", find.property},
           {"clause", find.clause},
           {"own_bug", find.own_bug},
           {"cause", find.cause},
           {"decided_by", find.decided_by},
           {"reference", find.reference},
           {"reference_seed", find.reference_seed},
           {"search", find.search},
           {"run", find.run},
           {"seed", find.seed},
           {"violation_us", find.violation_us},
           {"duration_us", find.duration_us},
           {"story", find.story},
           {"faults", find.schedule.size()},
           {"schedule", find.schedule},
           {"fault_kinds", find.fault_kinds},
           {"one_minimal", find.one_minimal},
           {"shrink_simulations", find.shrink_simulations},
           {"file", find.file},
           {"reproduced", find.reproduced},
           {"problem", find.problem}};
  if (find.theory) {
    out["theory"] = Json{{"cases", find.theory->cases}, {"because", find.theory->because}, {"fault", find.theory->fault}};
  }
  if (limit) out["runs"] = find.runs;
  return out;
}

Json lock_json(const LockRecord& lock) {
  Json marks = Json::array();
  for (const MarkRecord& mark : lock.marks) {
    Json out{{"mark", mark.mark}, {"runs_reaching", mark.runs}};
    if (!mark.not_applicable.empty()) out["not_applicable"] = mark.not_applicable;
    marks.push_back(std::move(out));
  }
  Json pairs = Json::array();
  for (const auto& [first, second] : lock.pairs) pairs.push_back(Json::array({first, second}));
  Json held = Json::object();
  for (const auto& [property, runs] : lock.held) held[property] = runs;
  Json finds = Json::array();
  for (const FindRecord& find : lock.finds) finds.push_back(find_json(find, false));
  Json limits = Json::array();
  for (const FindRecord& limit : lock.limits) limits.push_back(find_json(limit, true));
  const ExerciseRecord& exercise = lock.exercise;
  return Json{{"lock", lock.lock},
              {"runs", lock.runs},
              {"corpus_loaded", lock.corpus_loaded},
              {"events", lock.events},
              {"kept", lock.kept},
              {"exercise",
               {{"acquires", exercise.acquires},
                {"acquired", exercise.acquired},
                {"releases", exercise.releases},
                {"renews", exercise.renews},
                {"unknown_outcomes", exercise.unknown_outcomes},
                {"faults", exercise.faults},
                {"faults_during_hold", exercise.faults_during_hold}}},
              {"marks", marks},
              {"pairs_count", lock.pairs.size()},
              {"pairs", pairs},
              {"held", held},
              {"own_bugs", finds},
              {"known_limits", limits},
              {"replay_failures", lock.replay_failures}};
}

// --- reading ---

SearchSettings settings_from(const Json& in) {
  SearchSettings search;
  search.locks = in.at("locks").get<std::vector<std::string>>();
  search.seed = in.at("seed").get<std::uint64_t>();
  search.shard_index = in.at("shard").at("index").get<std::uint64_t>();
  search.shard_count = in.at("shard").at("count").get<std::uint64_t>();
  search.budget_runs = in.at("budget").at("runs").get<std::uint64_t>();
  search.budget_seconds = in.at("budget").at("seconds").get<double>();
  search.strategy = in.at("strategy").get<std::string>();
  search.without = in.at("without").get<std::vector<std::string>>();
  search.reference = in.at("reference").get<std::string>();
  search.property = in.at("property").get<std::string>();
  search.all_properties = in.at("all_properties").get<bool>();
  search.corpus_loaded = in.at("corpus_loaded").get<std::uint64_t>();
  return search;
}

FindRecord find_from(const Json& in, bool limit) {
  FindRecord find;
  find.property = in.at("property").get<std::string>();
  find.clause = in.value("clause", std::string());  // absent in outputs written before clauses
  find.own_bug = in.at("own_bug").get<bool>();
  find.cause = in.at("cause").get<std::string>();
  find.decided_by = in.at("decided_by").get<std::string>();
  find.reference = in.at("reference").get<std::string>();
  find.reference_seed = in.at("reference_seed").get<std::uint64_t>();
  find.search = in.at("search").get<std::uint64_t>();
  find.run = in.at("run").get<std::uint64_t>();
  find.seed = in.at("seed").get<std::uint64_t>();
  find.violation_us = in.at("violation_us").get<std::int64_t>();
  find.duration_us = in.at("duration_us").get<std::int64_t>();
  find.story = in.at("story").get<std::vector<std::string>>();
  find.schedule = in.at("schedule").get<std::vector<std::string>>();
  find.fault_kinds = in.at("fault_kinds").get<std::vector<std::string>>();
  find.one_minimal = in.at("one_minimal").get<bool>();
  find.shrink_simulations = in.at("shrink_simulations").get<std::int64_t>();
  find.file = in.at("file").get<std::string>();
  find.reproduced = in.at("reproduced").get<bool>();
  find.problem = in.at("problem").get<std::string>();
  if (in.contains("theory")) {
    const Json& theory = in.at("theory");
    find.theory = TheoryCase{theory.at("cases").get<std::string>(), theory.at("because").get<std::string>(),
                             theory.at("fault").get<std::string>()};
  }
  if (limit) find.runs = in.at("runs").get<std::int64_t>();
  return find;
}

LockRecord lock_from(const Json& in) {
  LockRecord lock;
  lock.lock = in.at("lock").get<std::string>();
  lock.runs = in.at("runs").get<std::uint64_t>();
  lock.corpus_loaded = in.at("corpus_loaded").get<std::uint64_t>();
  lock.events = in.at("events").get<std::uint64_t>();
  lock.kept = in.at("kept").get<std::uint64_t>();
  const Json& exercise = in.at("exercise");
  lock.exercise = ExerciseRecord{exercise.at("acquires").get<std::int64_t>(), exercise.at("acquired").get<std::int64_t>(),
                                 exercise.at("releases").get<std::int64_t>(), exercise.at("renews").get<std::int64_t>(),
                                 exercise.at("unknown_outcomes").get<std::int64_t>(), exercise.at("faults").get<std::int64_t>(),
                                 exercise.at("faults_during_hold").get<std::int64_t>()};
  for (const Json& mark : in.at("marks")) {
    lock.marks.push_back(MarkRecord{mark.at("mark").get<std::string>(), mark.at("runs_reaching").get<std::int64_t>(),
                                    mark.value("not_applicable", std::string())});
  }
  for (const Json& pair : in.at("pairs")) lock.pairs.emplace_back(pair.at(0).get<std::string>(), pair.at(1).get<std::string>());
  for (const auto& [property, runs] : in.at("held").items()) lock.held[property] = runs.get<std::int64_t>();
  for (const Json& find : in.at("own_bugs")) lock.finds.push_back(find_from(find, false));
  for (const Json& limit : in.at("known_limits")) lock.limits.push_back(find_from(limit, true));
  lock.replay_failures = in.at("replay_failures").get<std::vector<std::string>>();
  return lock;
}

}  // namespace

std::string explore_json(const ExploreDocument& document) {
  Json searches = Json::array();
  for (const SearchSettings& search : document.searches) searches.push_back(settings_json(search));
  Json locks = Json::array();
  for (const LockRecord& lock : document.locks) locks.push_back(lock_json(lock));
  const Json out{{"format", kFormat}, {"version", kVersion}, {"searches", searches}, {"locks", locks}};
  return out.dump(1) + "\n";
}

bool is_explore_json(std::string_view text) {
  const Json in = Json::parse(text, nullptr, false);
  return in.is_object() && in.value("format", "") == kFormat;
}

ExploreDocument parse_explore_json(std::string_view text, const std::string& source) {
  try {
    const Json in = Json::parse(text);
    if (!in.is_object() || in.value("format", "") != kFormat) {
      throw std::invalid_argument(
          fmt::format("{}: not an explore.json of `lockcheck explore` (no \"format\": \"{}\")", source, kFormat));
    }
    if (in.at("version").get<int>() != kVersion) {
      throw std::invalid_argument(fmt::format("{}: explore.json version {}, this lockcheck reads version {}", source,
                                              in.at("version").get<int>(), kVersion));
    }
    ExploreDocument document;
    for (const Json& search : in.at("searches")) document.searches.push_back(settings_from(search));
    for (const Json& lock : in.at("locks")) document.locks.push_back(lock_from(lock));
    for (const LockRecord& lock : document.locks) {
      for (const auto* finds : {&lock.finds, &lock.limits}) {
        for (const FindRecord& find : *finds) {
          if (find.search >= document.searches.size()) {
            throw std::invalid_argument(fmt::format("{}: a find of {} names search {}, but {} search(es) are listed", source,
                                                    lock.lock, find.search, document.searches.size()));
          }
        }
      }
    }
    return document;
  } catch (const nlohmann::json::exception& error) {
    throw std::invalid_argument(fmt::format("{}: not a readable explore.json: {}", source, error.what()));
  }
}

}  // namespace lockcheck::explore
