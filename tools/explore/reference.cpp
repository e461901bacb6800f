#include "reference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <variant>

#include "model/prng.hpp"
#include "reference_scripts.hpp"
#include "remembered_runs.hpp"
#include "properties/history.hpp"
#include "lockcheck/variants/registry.hpp"
#include "shrink.hpp"  // tools/shrink

namespace lockcheck::explore {

std::string reference_variant(const sim::RunConfig& config, const std::string& named) {
  if (!named.empty()) {
    const VariantRow* row = find_variant(named);
    if (row == nullptr || row->user_scripts) {
      throw std::invalid_argument(fmt::format("reference '{}' is not a catalogue variant (lockcheck variants)", named));
    }
    return named;
  }
  return std::string(variant_row(config.variant).reference);
}

namespace {

// A user's scripts against `token`: the reference runs as the token scripts (reference_scripts.hpp).
bool as_token_scripts(const sim::RunConfig& config, const std::string& reference) {
  return variant_row(config.variant).user_scripts && reference == "token";
}

}  // namespace

sim::RunConfig with_reference_lock(const sim::RunConfig& config, const std::string& reference) {
  const VariantRow& lock = variant_row(config.variant);
  const VariantRow& row = variant_row(reference);
  // A reentrant lock judged against a reference of another kind (redisson-fenced against fenced): a reference
  // that cannot re-enter would wait out its own hold at each nested acquire, or release under itself.
  if (config.workload.nest_every > 0 && !row.reentrant) {
    throw std::invalid_argument(fmt::format("the reference '{}' is not reentrant: it cannot run nested acquires", reference));
  }
  sim::RunConfig out = config;
  const bool renews = config.renewal.watchdog || lock.renewal == Renewal::in_background;
  if (as_token_scripts(config, reference)) {
    // The user's scripts against the token scripts, on the same script path: the same commands in the same
    // simulated time, so the two runs stay in step until the user's scripts do something else.
    out.scripts = reference_token_scripts(!config.scripts.renew.empty());
    out.renewal.max_renewals = 0;
    return out;
  }
  out.variant = reference;
  out.scripts = {};
  // A reference that renews by itself takes no second renewer; one that can be wrapped renews when the lock does.
  out.renewal.watchdog = renews && row.renewal == Renewal::by_watchdog;
  // A renewal cap is the lock's own choice (client-reentrant's), not the reference's.
  out.renewal.max_renewals = 0;
  return out;
}

bool reference_can_renew(const sim::RunConfig& config, const std::string& reference) {
  if (as_token_scripts(config, reference)) return !config.scripts.renew.empty();
  return variant_row(reference).renewal == Renewal::by_watchdog;
}

namespace {

// The schedule of try `i`: first the whole schedule moved by fractions of the TTL (the same faults, in the same
// order and spacing), then each fault moved on its own by up to half a TTL, then with its duration or step
// scaled by 0.5 .. 2 too: the neighbourhood of the same faults, where a lock of the kind meets them.
std::vector<sim::FaultSpec> neighbour(const std::vector<sim::FaultSpec>& faults, int i, std::int64_t ttl_us,
                                      std::int64_t duration_us, sim::Prng& prng) {
  constexpr std::int64_t kShiftEighths[] = {0, -1, 1, -2, 2, -4, 4, -6, 6, -8, 8};
  constexpr int kShifts = static_cast<int>(std::size(kShiftEighths));
  std::vector<sim::FaultSpec> out = faults;
  const std::int64_t shift_us = i < kShifts ? ttl_us * kShiftEighths[i] / 8 : 0;
  std::int64_t not_before_us = 0;
  for (sim::FaultSpec& fault : out) {
    std::int64_t at_us = fault.at_us + shift_us;
    if (i >= kShifts) at_us += prng.between(-ttl_us / 2, ttl_us / 2);
    // The faults keep their order: a restart stays after its crash, a heal after its partition.
    fault.at_us = std::clamp<std::int64_t>(at_us, not_before_us, std::max(not_before_us, duration_us));
    not_before_us = fault.at_us;
    if (i >= 2 * kShifts) {
      const std::int64_t permille = prng.between(500, 2000);
      fault.duration_us = fault.duration_us * permille / 1000;
      fault.delta_us = fault.delta_us * permille / 1000;
    }
  }
  return out;
}

}  // namespace

// One run's verdict on `property`, and when a process was granted the lock on a master (a key created).
struct Tried {
  shrink::Judged judged;
  std::vector<std::int64_t> grants_us;
};

Tried try_run(const sim::RunConfig& config, std::uint64_t seed, const std::string& property) {
  const std::shared_ptr<const properties::History> history = simulated_history(config, seed);
  Tried tried{shrink::judge_history(*history, property), {}};
  for (const properties::Event& event : history->events) {
    const auto* server = std::get_if<properties::ServerEvent>(&event);
    if (server != nullptr && server->event == properties::ServerEventKind::created && server->by >= 0 && !server->replicated) {
      tried.grants_us.push_back(server->t);
    }
  }
  return tried;
}

// How long after the latest grant before it the first fault landed (-1: no grant before it): a failover that
// lost a grant landed within the replication lag of one.
std::int64_t phase_after_grant(const std::vector<std::int64_t>& grants_us, std::int64_t fault_us) {
  std::int64_t latest = -1;
  for (const std::int64_t grant : grants_us) {
    if (grant <= fault_us) latest = std::max(latest, grant);
  }
  return latest < 0 ? -1 : fault_us - latest;
}

ReferenceJudgement judge_reference(const sim::RunConfig& config, std::uint64_t seed, const std::string& property,
                                   const std::string& reference, int seeds, bool late_holders_count) {
  ReferenceJudgement judgement;
  // The same schedule on every seed tried: a random nemesis is drawn (on the find's seed) into fixed faults.
  sim::RunConfig fixed = config;
  for (const sim::FaultSpec& drawn : sim::draw_nemesis_schedule(config, seed)) fixed.faults.push_back(drawn);
  std::stable_sort(fixed.faults.begin(), fixed.faults.end(),
                   [](const sim::FaultSpec& a, const sim::FaultSpec& b) { return a.at_us < b.at_us; });
  fixed.nemesis = sim::NemesisConfig{};
  sim::RunConfig reference_config;
  try {
    reference_config = with_reference_lock(fixed, reference);
  } catch (const std::invalid_argument&) {
    return judgement;  // a workload the reference cannot run (a capability it lacks): the theory decides
  }
  // Each try: a schedule and a seed. First the schedule itself; then the schedule moved so that its first fault
  // lands as long after one of the reference's own grants as it landed after the lock's (a failover within
  // the replication lag of a grant, a clock jump inside a hold); then other seeds and the neighbourhood.
  std::vector<std::pair<std::vector<sim::FaultSpec>, std::uint64_t>> tries{{fixed.faults, seed}};
  const auto tried = [&](const std::vector<sim::FaultSpec>& faults, std::uint64_t run_seed) -> std::optional<bool> {
    reference_config.faults = faults;
    Tried run;
    try {
      run = try_run(reference_config, run_seed, property);
    } catch (const std::invalid_argument&) {
      return std::nullopt;  // a configuration the reference refuses (a capability it lacks): it decides nothing
    }
    judgement.ran = true;
    ++judgement.simulations;
    if (run.judged.violated() && (late_holders_count || !properties::late_holder(run.judged.verdict))) {
      judgement.violated = true;
      judgement.seed = run_seed;
      judgement.faults = faults;
      judgement.cause = run.judged.verdict.cause;
    }
    // Only when a next try will run (the reference held and more seeds are allowed): the lock's own run below
    // costs a whole simulation, which the one-seed judgement of every find as found (Explorer::decide) paid for
    // nothing: a quarter of explore's CPU on correct scripts, whose finds are known limits.
    if (judgement.simulations == 1 && !fixed.faults.empty() && !judgement.violated && seeds > 1) {
      // The lock's grants on the find's own schedule and seed: each fault is aligned in turn (a loss period
      // from t=0 has no grant before it; the failover after it does), the reference's grants spread over.
      const std::vector<std::int64_t> lock_grants = try_run(fixed, seed, property).grants_us;
      constexpr std::size_t kAligned = 24;
      std::vector<std::pair<std::int64_t, std::int64_t>> anchors;  // (fault time, its phase after a grant)
      for (const sim::FaultSpec& fault : fixed.faults) {
        const std::int64_t phase_us = phase_after_grant(lock_grants, fault.at_us);
        if (phase_us >= 0) anchors.emplace_back(fault.at_us, phase_us);
      }
      const std::size_t per_anchor = anchors.empty() ? 0 : std::max<std::size_t>(1, kAligned / anchors.size());
      for (const auto& [anchor_us, phase_us] : anchors) {
        const std::size_t every = std::max<std::size_t>(1, run.grants_us.size() / per_anchor);
        for (std::size_t g = 0, made = 0; g < run.grants_us.size() && made < per_anchor; g += every, ++made) {
          const std::int64_t shift_us = run.grants_us[g] + phase_us - anchor_us;
          std::vector<sim::FaultSpec> aligned = fixed.faults;
          for (sim::FaultSpec& fault : aligned) fault.at_us = std::clamp<std::int64_t>(fault.at_us + shift_us, 0, config.duration_us);
          tries.emplace_back(std::move(aligned), seed);
        }
      }
    }
    return judgement.violated;
  };
  const std::int64_t ttl_us = config.lock.ttl.count() * 1000;
  sim::Prng prng(sim::derive_seed(seed, "reference"));
  int neighbours = 0;
  for (std::size_t i = 0; static_cast<int>(i) < seeds; ++i) {
    if (i >= tries.size()) {
      ++neighbours;
      tries.emplace_back(neighbour(fixed.faults, neighbours, ttl_us, config.duration_us, prng),
                         seed + static_cast<std::uint64_t>(neighbours));
    }
    const auto [faults, run_seed] = tries[i];  // a copy: a try may add tries
    const std::optional<bool> broke = tried(faults, run_seed);
    if (!broke || *broke) return judgement;
  }
  return judgement;
}

}  // namespace lockcheck::explore
