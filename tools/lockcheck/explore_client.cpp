#include "explore_client.hpp"

#include <fmt/format.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "../redis_backend/real_nemesis.hpp"
#include "client_link_delay.hpp"
#include "nemesis/fault_space.hpp"
#include "split_command.hpp"

namespace lockcheck::cli {
namespace {

// The client as reports name it: its adapter's file name without extension (the last word that names a file),
// else its program's.
std::string label_of(const std::vector<std::string>& command) {
  for (auto word = command.rbegin(); word != command.rend(); ++word) {
    if (std::filesystem::path(*word).has_extension()) return std::filesystem::path(*word).stem().string();
  }
  return std::filesystem::path(command.front()).filename().string();
}

double cpu_seconds_of_children() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

}  // namespace

ScratchFolder::ScratchFolder() {
  std::string pattern = (std::filesystem::temp_directory_path() / "lockcheck-explore-client-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot make a temporary directory");
  path_ = pattern;
}

ScratchFolder::~ScratchFolder() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

ClientSession::ClientSession(const ExploreClientOptions& options, std::optional<sim::RunConfig> base, const std::string& out_dir)
    : started_(std::chrono::steady_clock::now()) {
  if (options.parallel < 1 || options.confirm_runs < 2 || options.shrink_runs < 0) {
    throw std::invalid_argument("--parallel wants at least 1, --confirm at least 2, --shrink-runs at least 0");
  }
  settings_.client.command = options.command.empty() && base ? base->external.command : command_line::split_command(options.command);
  settings_.client.keys = options.keys.empty() && base ? base->external.keys : options.keys;
  if (settings_.client.command.empty()) throw std::invalid_argument("explore --client wants the client's command line");
  settings_.label = label_of(settings_.client.command);
  const std::filesystem::path tools = std::filesystem::read_symlink("/proc/self/exe").parent_path();
  settings_.lockcheck = (tools / "lockcheck").string();
  if (!std::filesystem::exists(settings_.lockcheck)) settings_.lockcheck = std::filesystem::read_symlink("/proc/self/exe").string();
  settings_.parallel = options.parallel;
  settings_.confirm_runs = options.confirm_runs;
  settings_.min_reproductions = std::min(2, options.confirm_runs);
  settings_.shrink_runs = options.shrink_runs;
  settings_.out_dir = out_dir;
  settings_.work_dir = scratch_.path();
  judge_ = std::make_unique<explore::ClientFindJudge>(settings_, sim::Fencing::off);
  if (base) {
    base_ = *base;
    base_.external = {};
  } else {
    base_ = explore::client_base(false);
  }
  const std::int64_t ttl_us = base_.lock.ttl.count() * 1000;
  if (options.renews == "yes" || options.renews == "no") {
    settings_.renews = options.renews == "yes";
  } else if (base) {
    settings_.renews = base_.workload.hold_max_us > ttl_us;  // the scenario's holds outlast the TTL: it renews
  } else {
    std::fprintf(stderr, "explore %s: probing whether the client renews its lease by itself (one judged run, holds of 3 TTLs)\n",
                 settings_.label.c_str());
    settings_.renews = explore::probe_renews(judge_->runner(), settings_.client, base_);
    std::fprintf(stderr, "explore %s: it %s\n", settings_.label.c_str(),
                 settings_.renews ? "renews by itself (holds past the TTL are drawn; the reference renews by its watchdog)"
                                  : "does not renew by itself (holds stay within the TTL)");
  }
  if (!base && settings_.renews) base_ = explore::client_base(true);
  if (base && settings_.renews && base_.workload.hold_max_us <= ttl_us) base_.workload.hold_max_us = 3 * ttl_us;
  settings_.base = base_;
  // The reference lock of the deployment's kind: lockcheck's Mutex on one master, its RedlockMutex on several.
  settings_.reference = explore::client_reference_for(base_);
  if (settings_.reference.program.empty()) {
    std::fprintf(stderr, "explore %s: no reference lock runs here (%s): the theory decides own bug or known limit\n",
                 settings_.label.c_str(), settings_.reference.none_because.c_str());
  } else {
    settings_.reference_program = (tools / settings_.reference.program).string();
    if (!std::filesystem::exists(settings_.reference_program)) {
      throw std::invalid_argument(fmt::format("{} is missing: build it (cmake --build build --target {}); it is the reference lock a "
                                              "client's find is judged against", settings_.reference_program, settings_.reference.program));
    }
  }
  judge_ = std::make_unique<explore::ClientFindJudge>(settings_, base_.workload.fencing);
  started_ = std::chrono::steady_clock::now();
}

void ClientSession::configure(explore::ExploreOptions& search) {
  search.jobs = settings_.parallel;
  search.batch = settings_.parallel;
  // A real run's faults cost real time to shrink: fresh runs draw fewer (guided: 4 to 16 per shortest run).
  search.max_faults = 2;
  for (const sim::FaultKind kind : explore::kinds_not_real(base_, &redis_backend::real_backend_supports)) {
    if (std::find(search.without.begin(), search.without.end(), kind) == search.without.end()) search.without.push_back(kind);
  }
  // An external client holds one lease on one thread and renews by its own library (sim::external_client_refusal).
  search.pins.watchdog = false;
  search.pins.check_lease = false;
  // A slow link on one client's connections, which no fault kind draws (client_link_delay.hpp).
  search.draw_links = [base = base_](sim::RunConfig& config, sim::Prng& prng) { return explore::draw_client_link_delay(base, config, prng); };
  const explore::ClientSpec client = settings_.client;
  const explore::ClientRunner* runner = &judge_->runner();
  // A run the judge could not make (the client died before it was ready) is no run of the search; three in a
  // row say the client cannot run here at all (not installed, NODE_PATH unset): the search stops with why.
  search.run = [this, runner, client](const explore::RunPlan& plan) {
    try {
      explore::RunOutcome outcome = runner->run(plan, client, plan.seed).outcome;
      failures_in_a_row_ = 0;
      return outcome;
    } catch (const std::runtime_error& error) {
      if (++failures_in_a_row_ >= 3) throw;
      std::fprintf(stderr, "explore %s: a run (seed %llu) could not be judged, left out: %s\n", settings_.label.c_str(),
                   static_cast<unsigned long long>(plan.seed), error.what());
      return explore::RunOutcome{};
    }
  };
  search.judge_find = [this](explore::Find& find) {
    const double at = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (!first_violation_s_) {
      first_violation_s_ = at;
      first_violation_run_ = find.run;
    }
    const explore::FindDecision decision = judge_->judge(find);
    if (decision == explore::FindDecision::own_bug && !first_own_bug_s_) {
      first_own_bug_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    }
    return decision;
  };
}

std::string ClientSession::cost_summary(std::uint64_t runs, double seconds) const {
  const double cpu = cpu_seconds_of_children();
  const std::uint64_t judged = explore::judged_runs_so_far();
  std::string text = fmt::format("{} runs of the search, {} judged runs in all (probe, confirmations, shrinking and reference "
                                 "runs included) in {:.1f} s, {:.2f} judged runs/s, CPU {:.2f} s per judged run ({:.1f} s in all), "
                                 "{} at once",
                                 runs, judged, seconds, seconds > 0 ? static_cast<double>(judged) / seconds : 0.0,
                                 judged > 0 ? cpu / static_cast<double>(judged) : 0.0, cpu, settings_.parallel);
  if (first_violation_s_) text += fmt::format("; first violation at {:.1f} s (run {})", *first_violation_s_, first_violation_run_);
  text += first_own_bug_s_ ? fmt::format("; first own bug confirmed at {:.1f} s", *first_own_bug_s_) : std::string("; no own bug");
  return text;
}

}  // namespace lockcheck::cli
