// Settings that a scenario's variant would silently ignore are refused at their key, with the fix: a run that
// ignores what its file asks for tests something else than its author believes (issue 24, item 6). Runs after
// every table is read, since each check weighs one table's setting against the variant and [lock].
#include <fmt/format.h>

#include "lockcheck/variants/capabilities.hpp"
#include "scenario/readers.hpp"
#include "lockcheck/variants/registry.hpp"

namespace lockcheck::sim::scenario_detail {
namespace {

std::string ids(bool (*has)(const std::string&)) { return fmt::format("{}", fmt::join(variants_where(has), ", ")); }

// The renew.lua a script scenario gives runs only under the watchdog: refuse it alone rather than run a
// scenario in which the user's renewal code never executes. (Running the watchdog by default instead would
// change what a scenario without `watchdog` means for every other variant; the fix is one line.)
void check_renew_script(const Section& top, const Scenario& scenario) {
  if (!variant_has(scenario.config.variant, &VariantRow::user_scripts) || scenario.scripts.renew.empty() || scenario.config.renewal.watchdog) return;
  top.table("scripts")->fail_at(
      "renew", "[scripts] renew would never run: nothing renews a script lock unless the watchdog does; add "
               "`watchdog = true` to [lock] (the library's watchdog then renews every held lock through your "
               "renew.lua), or remove `renew`");
}

// [lock] renew_divisor, max_renewals, max_hold_ms configure renewal: without it they configure nothing.
void check_renewal_keys(const Section& top, const Scenario& scenario) {
  const std::string& variant = scenario.config.variant;
  if (scenario.config.renewal.watchdog || renews_in_background(variant)) return;
  const auto lock = top.table("lock");
  if (!lock) return;
  for (std::string_view key : {"renew_divisor", "max_renewals", "max_hold_ms"}) {
    if (!lock->has(key)) continue;
    lock->fail_at(key, fmt::format("[lock] {} configures renewal, but variant '{}' does not renew here; add "
                                   "`watchdog = true` to [lock] to renew it, or remove `{}` (variants that renew "
                                   "by themselves: {})", key, variant, key, ids(renews_in_background)));
  }
}

void check_workload_keys(const Section& top, const Scenario& scenario) {
  const auto workload = top.table("workload");
  if (!workload) return;
  const std::string& variant = scenario.config.variant;
  const WorkloadConfig& w = scenario.config.workload;
  if (w.readers_ppm > 0 && !has_shared_mode(variant)) {
    workload->fail_at("readers_ppm",
                      fmt::format("[workload] readers_ppm asks for read (shared) acquisitions, but variant '{}' has "
                                  "no shared mode; use one that has ({}) or remove `readers_ppm`", variant,
                                  ids(has_shared_mode)));
  }
  if (w.fencing != Fencing::off && !hands_out_fencing_tokens(variant)) {
    workload->fail_at("fencing",
                      fmt::format("[workload] fencing makes the register check the holders' fencing tokens, but "
                                  "variant '{}' hands out none (every lease's token is 0, so nothing would be "
                                  "rejected); use variant {} or remove `fencing`", variant,
                                  ids(hands_out_fencing_tokens)));
  }
  if (w.permits > 1 && !counts_permits(variant)) {
    workload->fail_at("permits",
                      fmt::format("[workload] permits sizes a semaphore, but variant '{}' is a lock (one holder at a "
                                  "time); use a semaphore ({}) or remove `permits`", variant, ids(counts_permits)));
  }
  if (workload->has("latch_count") && !counts_down(variant)) {
    workload->fail_at("latch_count",
                      fmt::format("[workload] latch_count sets a count-down latch's count, but variant '{}' is a lock; "
                                  "use a latch ({}) or remove `latch_count`", variant, ids(counts_down)));
  }
  if (counts_down(variant) && scenario.config.clients.size() < w.latch_count) {
    workload->fail_here(fmt::format("variant '{}' is a count-down latch of latch_count = {}: it needs at least that "
                                    "many clients ([clients] count) to count it down", variant, w.latch_count));
  }
  if (w.nest_every > 0 && !is_reentrant(variant)) {
    workload->fail_at("nest_every",
                      fmt::format("[workload] nest_every nests acquires of the held lock, but variant '{}' is not "
                                  "reentrant: its nested acquire would only wait out wait_ms against its own hold; "
                                  "use a reentrant variant ({}) or remove `nest_every`", variant, ids(is_reentrant)));
  }
  if (w.nest_every == 0) {
    for (std::string_view key : {"nested_ttl_ms", "nested_hold_min_ms", "nested_hold_max_ms"}) {
      if (!workload->has(key)) continue;
      workload->fail_at(key, fmt::format("[workload] {} applies to nested acquires, and there are none without "
                                         "`nest_every` > 0; set nest_every, or remove `{}`", key, key));
    }
  }
}

}  // namespace

void check_settings_apply(const Section& top, const Scenario& scenario) {
  check_renew_script(top, scenario);
  check_renewal_keys(top, scenario);
  check_workload_keys(top, scenario);
}

}  // namespace lockcheck::sim::scenario_detail
