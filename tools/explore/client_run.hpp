#pragma once
// One run of `explore --client` (client_explore.hpp): a plan written as a judge scenario file with the client's
// `[client] command`, judged by `lockcheck judge FILE --seed S` in a process of its own on free loopback ports
// (real redis-servers, the client's processes under the plan's real faults), its history read back and checked
// as the simulator's are. A process per run: runs go side by side without sharing signal handlers or forks.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "explorer.hpp"
#include "properties/history.hpp"
#include "run_plan.hpp"
#include "scenario/scenario.hpp"

namespace lockcheck::explore {

// The external client a search judges, and how it is run.
struct ClientSpec {
  std::vector<std::string> command;  // the client's command line, words as a shell splits them
  std::vector<std::string> keys;     // the keys its library writes when not the scenario's key ([client] keys)
};

// `plan` as a judge scenario file's text: its workload, topology, fault schedule, `seed_list` (the plan's seed,
// and `seeds` more after it when given) and `[client]`; `expect` a property expected violated ("" none).
std::string client_scenario_text(const RunPlan& plan, const ClientSpec& client, const std::string& name,
                                 const std::vector<std::uint64_t>& seeds, const std::string& expect,
                                 const std::string& description);

struct ClientRunResult {
  RunOutcome outcome;
  properties::History history;
  std::string hung;  // the judge's HUNG line, when the client stopped answering
};

class ClientRunner {
 public:
  // `lockcheck`: the lockcheck binary (it runs `judge`); `work_dir`: where each run's file and history go (each
  // removed after it was read).
  ClientRunner(std::string lockcheck, std::string work_dir) : lockcheck_(std::move(lockcheck)), work_dir_(std::move(work_dir)) {}
  // Judges `plan` with `client` once, on `seed`. Throws std::runtime_error when the judge could not run it (the
  // client did not start, bad input): that is no run of the search. Thread-safe.
  ClientRunResult run(const RunPlan& plan, const ClientSpec& client, std::uint64_t seed) const;
  // Judges a scenario file (one explore wrote) on one of its seeds, as `lockcheck judge FILE --seed S` does.
  ClientRunResult run_file(const std::string& path, std::uint64_t seed) const;

 private:
  std::string lockcheck_;
  std::string work_dir_;
};

// Judged runs this process made (every ClientRunner's), for the CPU per run.
std::uint64_t judged_runs_so_far();

// Runs `argv` with stdout and stderr to those files and stdin from /dev/null; its exit code (128 + signal when
// killed by one).
int run_process(const std::vector<std::string>& argv, const std::string& stdout_path, const std::string& stderr_path);

}  // namespace lockcheck::explore
