#include "merge_explore.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "properties/verdict.hpp"
#include "scenario/scenario.hpp"

namespace lockcheck::explore {
namespace {

// A find of one input, a candidate for its (lock, property, tier).
struct Candidate {
  FindRecord find;
  std::size_t input = 0;
};

// Smallest first: fewest faults, then the shortest run; then seed and run, so that the order of the inputs on
// the command line does not decide between equals unless all else is equal.
bool smaller(const Candidate& a, const Candidate& b) {
  return std::forward_as_tuple(a.find.schedule.size(), a.find.duration_us, a.find.seed, a.find.run, a.input) <
         std::forward_as_tuple(b.find.schedule.size(), b.find.duration_us, b.find.seed, b.find.run, b.input);
}

// Properties in the order reports list them; any other name after them, by name.
std::size_t property_rank(const std::string& selector) {
  const std::string property = properties::split_selector(selector).first;
  const auto* known = std::find(std::begin(sim::kExpectableProperties), std::end(sim::kExpectableProperties), property);
  return static_cast<std::size_t>(std::distance(std::begin(sim::kExpectableProperties), known));
}

void check_no_search_twice(const std::vector<ExploreInput>& inputs) {
  for (std::size_t a = 0; a < inputs.size(); ++a) {
    for (std::size_t b = a + 1; b < inputs.size(); ++b) {
      for (const SearchSettings& search : inputs[a].document.searches) {
        const auto& others = inputs[b].document.searches;
        if (std::find(others.begin(), others.end(), search) == others.end()) continue;
        throw std::invalid_argument(fmt::format(
            "the same search ({}, seed {}, shard {}/{}) is in {} and in {}: its runs would count twice (give each "
            "search its own --seed, and merge a merged result only with what it does not already hold)",
            fmt::join(search.locks, ", "), search.seed, search.shard_index, search.shard_count, inputs[a].source, inputs[b].source));
      }
    }
  }
}

// A split's shards missing among the inputs: fewer runs than the split meant, worth a word, not a refusal.
std::vector<std::string> missing_shards(const std::vector<SearchSettings>& searches) {
  std::map<std::string, std::set<std::uint64_t>> present;  // the split (its settings but the shard) -> indices
  std::map<std::string, std::uint64_t> counts;
  for (const SearchSettings& search : searches) {
    if (search.shard_count <= 1) continue;
    const std::string split = fmt::format("{}: seed {}, {}, budget {} runs {}s, without [{}], reference '{}', property '{}'{}",
                                          fmt::join(search.locks, ", "), search.seed, search.strategy, search.budget_runs, search.budget_seconds,
                                          fmt::join(search.without, ","), search.reference, search.property,
                                          search.all_properties ? ", all properties" : "");
    present[split].insert(search.shard_index);
    counts[split] = search.shard_count;
  }
  std::vector<std::string> warnings;
  for (const auto& [split, indices] : present) {
    std::vector<std::string> missing;
    for (std::uint64_t index = 0; index < counts[split] && missing.size() < 16; ++index) {
      if (indices.count(index) == 0) missing.push_back(fmt::format("{}/{}", index, counts[split]));
    }
    if (!missing.empty()) {
      warnings.push_back(fmt::format("shard(s) {} of the search ({}) are not among the inputs: that part of the search is "
                                     "missing", fmt::join(missing, ", "), split));
    }
  }
  return warnings;
}

// The sums of one lock over its inputs, and its candidate finds.
struct LockMerge {
  LockRecord record;
  std::vector<std::string> mark_order;
  std::map<std::string, std::size_t> mark_rank;
  std::set<std::pair<std::size_t, std::size_t>> pairs;
  std::map<std::pair<std::string, bool>, std::vector<Candidate>> candidates;  // (property, own bug) -> candidates
  std::map<std::string, std::int64_t> limit_runs;                            // property -> runs that met a limit
};

std::size_t rank_of(LockMerge& merge, const std::string& mark) {
  const auto [at, added] = merge.mark_rank.emplace(mark, merge.mark_order.size());
  if (added) merge.mark_order.push_back(mark);
  return at->second;
}

void add_lock(LockMerge& merge, const LockRecord& lock, std::size_t input, std::uint64_t search_offset) {
  LockRecord& sum = merge.record;
  sum.runs += lock.runs;
  sum.corpus_loaded += lock.corpus_loaded;
  sum.events += lock.events;
  sum.kept += lock.kept;
  sum.exercise.acquires += lock.exercise.acquires;
  sum.exercise.acquired += lock.exercise.acquired;
  sum.exercise.releases += lock.exercise.releases;
  sum.exercise.renews += lock.exercise.renews;
  sum.exercise.unknown_outcomes += lock.exercise.unknown_outcomes;
  sum.exercise.faults += lock.exercise.faults;
  sum.exercise.faults_during_hold += lock.exercise.faults_during_hold;
  for (const MarkRecord& mark : lock.marks) {
    const std::size_t rank = rank_of(merge, mark.mark);
    if (rank == sum.marks.size()) sum.marks.push_back(MarkRecord{mark.mark, 0, mark.not_applicable});
    sum.marks[rank].runs += mark.runs;
    // Not applicable only where no input could reach it (inputs that searched other fault kinds may differ).
    if (mark.not_applicable.empty()) sum.marks[rank].not_applicable.clear();
  }
  for (const auto& [first, second] : lock.pairs) merge.pairs.emplace(rank_of(merge, first), rank_of(merge, second));
  for (const auto& [property, runs] : lock.held) sum.held[property] += runs;
  for (const auto* finds : {&lock.finds, &lock.limits}) {
    for (FindRecord find : *finds) {
      find.search += search_offset;
      const std::string selector = properties::selector(find.property, find.clause);
      if (!find.own_bug) merge.limit_runs[selector] += find.runs;
      merge.candidates[{selector, find.own_bug}].push_back(Candidate{std::move(find), input});
    }
  }
  // An input's own replay failures are not carried over: every find kept here is replayed again now.
}

// The smallest candidate that still reproduces (each tried at most once), or the smallest when none does.
FindRecord keep_one(std::vector<Candidate>& candidates, const std::vector<ExploreInput>& inputs, const ReplayFind& replay,
                    LockRecord& lock) {
  std::sort(candidates.begin(), candidates.end(), smaller);
  std::optional<FindRecord> smallest;
  for (Candidate& candidate : candidates) {
    const ExploreInput& input = inputs[candidate.input];
    const std::string given = (std::filesystem::path(input.directory) / candidate.find.file).generic_string();
    const Replayed replayed = replay(candidate.find, input);
    candidate.find.file = replayed.file;
    candidate.find.reproduced = replayed.reproduced;
    candidate.find.problem = replayed.problem;
    if (replayed.reproduced) return candidate.find;
    lock.replay_failures.push_back(fmt::format("{} {} ({}): {} does not reproduce: {}", lock.lock,
                                               properties::selector(candidate.find.property, candidate.find.clause),
                                               candidate.find.own_bug ? "own bug" : "known limit", given, replayed.problem));
    if (!smallest) smallest = candidate.find;
  }
  return *smallest;
}

}  // namespace

MergedExplore merge_explore(const std::vector<ExploreInput>& inputs, const ReplayFind& replay) {
  if (inputs.empty()) throw std::invalid_argument("merge: no explore output given");
  check_no_search_twice(inputs);
  MergedExplore merged;
  std::vector<std::string> lock_order;
  std::map<std::string, LockMerge> locks;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::uint64_t offset = merged.document.searches.size();
    const auto& searches = inputs[i].document.searches;
    merged.document.searches.insert(merged.document.searches.end(), searches.begin(), searches.end());
    for (const LockRecord& lock : inputs[i].document.locks) {
      const auto [at, added] = locks.try_emplace(lock.lock);
      if (added) {
        lock_order.push_back(lock.lock);
        at->second.record.lock = lock.lock;
      }
      add_lock(at->second, lock, i, offset);
    }
  }
  merged.warnings = missing_shards(merged.document.searches);
  for (const std::string& name : lock_order) {
    LockMerge& merge = locks.at(name);
    LockRecord& record = merge.record;
    for (const auto& [first, second] : merge.pairs) record.pairs.emplace_back(merge.mark_order[first], merge.mark_order[second]);
    // Own bugs, then limits, each in the order of the properties.
    std::vector<std::pair<std::string, bool>> keys;
    for (const auto& [key, candidates] : merge.candidates) keys.push_back(key);
    std::sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) {
      return std::make_tuple(!a.second, property_rank(a.first), a.first) < std::make_tuple(!b.second, property_rank(b.first), b.first);
    });
    for (const auto& key : keys) {
      FindRecord kept = keep_one(merge.candidates.at(key), inputs, replay, record);
      if (key.second) {
        record.finds.push_back(std::move(kept));
      } else {
        kept.runs = merge.limit_runs.at(key.first);
        record.limits.push_back(std::move(kept));
      }
    }
    merged.document.locks.push_back(std::move(record));
  }
  return merged;
}

}  // namespace lockcheck::explore
