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
  unsigned parallel = 2;        // --parallel
  int confirm_runs = 5;         // --confirm
  int shrink_runs = 40;         // --shrink-runs
};

class ClientSession {
 public:
  // `base` is the scenario's configuration (its [client] in base.external), or nullopt for --client alone.
  ClientSession(const ExploreClientOptions& options, std::optional<sim::SimConfig> base, const std::string& out_dir);
  ~ClientSession();
  ClientSession(const ClientSession&) = delete;
  ClientSession& operator=(const ClientSession&) = delete;

  const std::string& label() const { return settings_.label; }
  const sim::SimConfig& base() const { return base_; }
  bool renews() const { return settings_.renews; }
  // `search` made to run on the real backend: runs and finds go to the client, runs side by side, the kinds the
  // backend cannot make real left out, the workload knobs an external client refuses pinned.
  void configure(explore::ExploreOptions& search);
  const explore::ClientFindJudge& judge() const { return *judge_; }
  // "first violation at 12.3 s (run 7), first own bug confirmed at 80.1 s; CPU 1.9 s per run" and the like.
  std::string cost_summary(std::uint64_t runs, double seconds) const;

 private:
  explore::ClientSearchSettings settings_;
  sim::SimConfig base_;
  std::unique_ptr<explore::ClientFindJudge> judge_;
  std::chrono::steady_clock::time_point started_;
  std::optional<double> first_violation_s_, first_own_bug_s_;
  std::uint64_t first_violation_run_ = 0;
  std::atomic<int> failures_in_a_row_{0};
};

}  // namespace lockcheck::cli
