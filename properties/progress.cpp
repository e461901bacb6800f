// Progress figures: throughput, waiting, starvation. Reported, not judged; a scenario may gate on them.
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "checkers.hpp"

namespace lockcheck::properties {

namespace {

// Nearest-rank percentile of sorted values (per mille, so integers only).
std::int64_t percentile(const std::vector<std::int64_t>& sorted, std::int64_t per_mille) {
  if (sorted.empty()) return 0;
  auto n = static_cast<std::int64_t>(sorted.size());
  std::int64_t rank = (per_mille * n + 999) / 1000;  // ceil(p * n)
  return sorted[static_cast<std::size_t>(std::clamp<std::int64_t>(rank, 1, n) - 1)];
}

}  // namespace

Progress measure_progress(const History& history) {
  Progress progress;
  std::map<std::pair<std::int64_t, std::string>, std::int64_t> invoked_at;  // (process, key) -> acquire invoke t
  std::vector<std::int64_t> waits_us;
  for (const Event& event : history.events) {
    const auto* op = std::get_if<Op>(&event);
    if (op != nullptr && op->error && progress.server_errors++ == 0) progress.first_server_error = op->detail;
    if (op == nullptr || op->fn != OpFn::acquire) continue;
    std::pair<std::int64_t, std::string> id{op->process, op->key};
    if (op->type == OpType::invoke) {
      ++progress.acquire_attempts;
      progress.acquisitions_by_process.try_emplace(op->process, 0);
      invoked_at[id] = op->t;
      continue;
    }
    auto invoke = invoked_at.find(id);
    if (op->type == OpType::ok) {
      ++progress.acquisitions;
      ++progress.acquisitions_by_process[op->process];
      if (invoke != invoked_at.end()) waits_us.push_back(op->t - invoke->second);
    }
    if (invoke != invoked_at.end()) invoked_at.erase(invoke);
  }
  std::int64_t duration_us = history.end_us() - history.meta.t;
  if (duration_us > 0) progress.acquisitions_per_second = progress.acquisitions * 1'000'000 / duration_us;
  std::sort(waits_us.begin(), waits_us.end());
  progress.wait_p50_us = percentile(waits_us, 500);
  progress.wait_p99_us = percentile(waits_us, 990);
  for (const auto& [process, count] : progress.acquisitions_by_process) {
    if (count == 0) progress.starved_processes.push_back(process);
  }
  return progress;
}

void to_json(nlohmann::json& out, const Progress& progress) {
  nlohmann::json by_process = nlohmann::json::object();
  for (const auto& [process, count] : progress.acquisitions_by_process) by_process[std::to_string(process)] = count;
  out = nlohmann::json{{"acquisitions", progress.acquisitions},
                       {"acquire_attempts", progress.acquire_attempts},
                       {"acquisitions_per_second", progress.acquisitions_per_second},
                       {"wait_p50_us", progress.wait_p50_us},
                       {"wait_p99_us", progress.wait_p99_us},
                       {"acquisitions_by_process", by_process},
                       {"starved_processes", progress.starved_processes},
                       {"server_errors", progress.server_errors}};
  if (progress.server_errors > 0) out["first_server_error"] = progress.first_server_error;
}

}  // namespace lockcheck::properties
