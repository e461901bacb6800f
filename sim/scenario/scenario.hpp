#pragma once
// A scenario file (scenarios/*.toml, format in scenarios/README.md) parsed and checked: the simulator
// configuration, the seeds to run, and the verdict the file expects per property. Every problem in a file is
// reported as "path:line:column: message" so that a CI log points straight at the offending line.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/config.hpp"

namespace lockcheck::sim {

// The whole message, location included, is what(): callers print it as is.
class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Expectation {
  std::string property;  // one of kExpectableProperties, or "progress" (only with starved)
  // starved: `[expect] progress = "starved"`: no client ever acquires the lock, in every seed (a lock that
  // cannot run where it is deployed, e.g. its keys span cluster slots), optionally `because` of a server error.
  enum class Expected { holds, violated, starved } expected;
  int line;  // where the file states it, for messages about an unmet expectation
  // For starved: text the first server error must contain (`starved_because`, e.g. "CROSSSLOT"); "" any or none.
  std::string because = {};
};

// "holds", "violated" or "starved": as files write it and reports show it.
std::string_view to_string(Expectation::Expected expected);

struct Scenario {
  std::string name;         // SimConfig::scenario holds the same name
  std::string path;         // as given to load_scenario / parse_scenario
  std::string description;
  std::string backend = "mock";  // "mock" | "redis"
  // `lockcheck explore`'s reference lock for this scenario's lock (a catalogue id; "": the variant's own kind):
  // a find is a known limit only if it breaks too (tools/explore/reference.hpp).
  std::string reference;
  // What the redis backend runs each node on: "redis-server", or "serve" (`lockcheck serve`: single nodes).
  std::string server = "redis-server";
  SimConfig config;
  std::vector<std::uint64_t> seeds;          // never empty; no duplicates
  std::vector<Expectation> expectations;     // in file order
  // [expect] none = "why": the file gates no verdict, on purpose (a judge test whose client is a test double).
  std::string expects_none_because;
  // For variant "script" only: absolute paths, resolved relative to the scenario file's directory.
  // renew is empty when the file gives none.
  struct Scripts {
    std::string acquire, release, renew;
  } scripts;
};

// The properties an [expect] table may name, in the order reports list them.
inline constexpr std::string_view kExpectableProperties[] = {
    "mutual_exclusion_server", "mutual_exclusion_client", "mutual_exclusion_resource", "owner_only_release",
    "bounded_unavailability",  "reentrancy",              "renewal",                   "fencing",
    "permit_safety",
};

// Reads and parses a file; also checks that the script files of variant "script" exist and keep their contract,
// and that the file has an [expect] table. `server`, when not empty, replaces the file's `server` (the command
// line's --server) and is checked as if the file said it.
Scenario load_scenario(const std::string& path, std::string_view server = {});

// Parses text; `path_for_messages` prefixes errors, gives the default name (its stem) and the directory that
// script paths are relative to. Script files are not opened, and [expect] may be left out.
Scenario parse_scenario(std::string_view text, const std::string& path_for_messages);

// Why `config`'s workload needs more of a lock than an external client's protocol drives (one lease at a time
// on one thread, renewed by the client's own library), or "" when it does not: `lockcheck judge --client`
// asks it of a file without [client], the reader at [client] command.
std::string external_client_refusal(const SimConfig& config);

}  // namespace lockcheck::sim
