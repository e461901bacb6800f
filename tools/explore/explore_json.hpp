#pragma once
// What `lockcheck explore` hands to machines: OUT/explore.json beside its finds, one entry per lock explored,
// and the settings of the search. `lockcheck merge` reads these (from shards, from nights), unites them and
// writes one of the same format, so a merged result merges again. Plain data: the report printer reads these
// records too, so an explore and a merge print the same way.
//
// Deterministic: no wall clock, no machine path (a find's file is named relative to the explore.json), keys
// in a fixed order, maps sorted.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lockcheck::explore {

inline constexpr std::string_view kExploreJsonName = "explore.json";

// How one explore was asked to search (a merged file lists every search it unites).
struct SearchSettings {
  std::vector<std::string> locks;  // the locks it explored (two searches of different locks are different searches)
  std::uint64_t seed = 1;
  std::uint64_t shard_index = 0;
  std::uint64_t shard_count = 1;
  std::uint64_t budget_runs = 0;  // this shard's runs per lock (0: none, a time budget ended it)
  double budget_seconds = 0;      // per lock and shard (0: none)
  std::string strategy;
  std::vector<std::string> without;
  std::string reference;  // "" the variant's kind
  std::string property;   // "" every property
  bool all_properties = false;
  std::uint64_t corpus_loaded = 0;  // runs resumed from a corpus, over all locks (a resumed search is another search)
  bool operator==(const SearchSettings&) const = default;
};

// The theory case that words a known limit (known_limit.hpp).
struct TheoryCase {
  std::string cases;    // "F7, F9"
  std::string because;  // what the fault does
  std::string fault;    // the kind --without leaves out ("" none)
};

// An own bug, or the example of a known limit met.
struct FindRecord {
  std::string property;
  std::string clause;  // the property's clause it broke (properties/verdict.hpp), "" for a property of one
  bool own_bug = true;
  std::string cause;       // the verdict's, on the minimal run
  std::string decided_by;  // own bug or known limit: what decided it
  std::string reference;
  std::uint64_t reference_seed = 0;
  std::uint64_t search = 0;  // index into the document's searches: whose run it was
  std::uint64_t run = 0;     // 1-based run of that search
  std::uint64_t seed = 0;    // the minimal run's seed
  std::int64_t violation_us = -1;
  std::int64_t duration_us = 0;  // the minimal run's length
  std::vector<std::string> story;        // what the lock did in the minimal run (explain.hpp), one sentence a line
  std::vector<std::string> schedule;     // the minimal schedule, one fault per line
  std::vector<std::string> fault_kinds;  // its kinds, each once, in order
  bool one_minimal = false;
  std::int64_t shrink_simulations = 0;
  std::string file;  // the scenario file, relative to the explore.json's folder
  bool reproduced = false;
  std::string problem;  // why not, when it does not reproduce
  std::optional<TheoryCase> theory;
  std::int64_t runs = 1;  // a known limit: runs that met one of this property
};

struct MarkRecord {
  std::string mark;            // properties::to_string(Mark)
  std::int64_t runs = 0;       // runs that reached it
  std::string not_applicable;  // why this lock cannot reach it (then it is no blind spot), or ""
};

struct ExerciseRecord {
  std::int64_t acquires = 0, acquired = 0, releases = 0, renews = 0, unknown_outcomes = 0, faults = 0,
               faults_during_hold = 0;
};

struct LockRecord {
  std::string lock;  // as the report names it: a variant id, "script", a starting scenario's name
  std::uint64_t runs = 0;
  std::uint64_t corpus_loaded = 0;  // of `runs`, resumed from a corpus
  std::uint64_t events = 0;
  std::uint64_t kept = 0;  // runs kept for mutation
  ExerciseRecord exercise;
  std::vector<MarkRecord> marks;                           // every mark, in the marks' order
  std::vector<std::pair<std::string, std::string>> pairs;  // mark pairs reached in one run
  std::map<std::string, std::int64_t> held;                // property -> runs that judged it and saw no violation
  std::vector<FindRecord> finds;                           // the lock's own bugs
  std::vector<FindRecord> limits;                          // known limits met
  std::vector<std::string> replay_failures;                // merge: finds that no longer reproduce, each said why
};

struct ExploreDocument {
  std::vector<SearchSettings> searches;
  std::vector<LockRecord> locks;
};

std::string explore_json(const ExploreDocument& document);
// Throws std::invalid_argument naming `source` when the text is not an explore.json of this format.
ExploreDocument parse_explore_json(std::string_view text, const std::string& source);
// Whether the text is an explore.json (its "format"), so that `lockcheck merge` tells it from a compare shard.
bool is_explore_json(std::string_view text);

}  // namespace lockcheck::explore
