#pragma once
// A scenario as every backend runs it: the run's configuration, its seeds and the verdicts it expects. The
// files' reader and writer are sim/scenario's; the redis backend and the checkers' tools need only this.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/properties.hpp"
#include "model/run_config.hpp"

namespace lockcheck::sim {

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
  std::string name;         // RunConfig::scenario holds the same name
  std::string path;         // as given to load_scenario / parse_scenario
  std::string description;
  std::string backend = "mock";  // "mock" | "redis"
  // `lockcheck explore`'s reference lock for this scenario's lock (a catalogue id; "": the variant's own kind):
  // a find is a known limit only if it breaks too (tools/explore/reference.hpp).
  std::string reference;
  // What the redis backend runs each node on: "redis-server", or "serve" (`lockcheck serve`: single nodes).
  std::string server = "redis-server";
  RunConfig config;
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

// Why `config`'s workload needs more of a lock than an external client's protocol drives (one lease at a time
// on one thread, renewed by the client's own library), or "" when it does not: `lockcheck judge --client`
// asks it of a file without [client], the reader at [client] command.
std::string external_client_refusal(const RunConfig& config);

}  // namespace lockcheck::sim
