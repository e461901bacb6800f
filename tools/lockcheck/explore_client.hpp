#pragma once
// `lockcheck explore --client CMD` as the command runs it: the client's starting configuration (its own, or a
// scenario's with `[client]`), whether it renews by itself (said, or probed), the search's options for real runs
// (client_explore.hpp), a scratch folder, and what the runs cost (wall and CPU time, time to the first find).
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "client_explore.hpp"
#include "explorer.hpp"

namespace lockcheck::cli {

struct ExploreClientOptions {
  std::string command;          // --client "CMD ARGS" (replaces a scenario's [client] command)
  std::vector<std::string> keys;  // --client-keys
  std::string renews = "auto";  // --client-renews yes|no|auto (auto: a scenario's holds past the TTL, or a probe run)
  // --parallel: a judged run of a Node client costs about 1.2 s of CPU over 4 to 8 s of wall time (its runtime's
  // start-up most of it), so three at once keep about half of one of a 2-core machine's cores busy.
  unsigned parallel = 3;
  int confirm_runs = 5;         // --confirm
  int shrink_runs = 16;         // --shrink-runs
};

// A scratch folder, removed with everything in it when it goes (also when the session's start-up throws).
class ScratchFolder {
 public:
  ScratchFolder();
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

class ClientSession {
 public:
  // `base` is the scenario's configuration (its [client] in base.external), or nullopt for --client alone.
  ClientSession(const ExploreClientOptions& options, std::optional<sim::RunConfig> base, const std::string& out_dir);
  ClientSession(const ClientSession&) = delete;
  ClientSession& operator=(const ClientSession&) = delete;

  const std::string& label() const { return settings_.label; }
  const sim::RunConfig& base() const { return base_; }
  bool renews() const { return settings_.renews; }
  // `search` made to run on the real backend: runs and finds go to the client, runs side by side, the kinds the
  // backend cannot make real left out, the workload knobs an external client refuses pinned.
  void configure(explore::ExploreOptions& search);
  const explore::ClientFindJudge& judge() const { return *judge_; }
  // "first violation at 12.3 s (run 7), first own bug confirmed at 80.1 s; CPU 1.9 s per run" and the like.
  std::string cost_summary(std::uint64_t runs, double seconds) const;

 private:
  ScratchFolder scratch_;
  explore::ClientSearchSettings settings_;
  sim::RunConfig base_;
  std::unique_ptr<explore::ClientFindJudge> judge_;
  std::chrono::steady_clock::time_point started_;
  std::optional<double> first_violation_s_, first_own_bug_s_;
  std::uint64_t first_violation_run_ = 0;
  std::atomic<int> failures_in_a_row_{0};
};

}  // namespace lockcheck::cli
