// The run as a whole (name, backend, variant, duration, seeds) and the tables that configure every client
// alike: [lock] (the variant's options) and [workload].
#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "lockcheck/lock_options.hpp"
#include "lockcheck/public_types.hpp"
#include "lockcheck/variants/capabilities.hpp"
#include "lockcheck/variants/registry.hpp"
#include "scenario/closest_name.hpp"
#include "scenario/readers.hpp"

namespace lockcheck::sim::scenario_detail {
namespace {

constexpr std::int64_t kMaxU32 = std::numeric_limits<std::uint32_t>::max();
// More seeds than this is a sweep for `lockcheck run --runs`, not a file; it also bounds the vector.
constexpr std::int64_t kMaxSeedCount = 1000000;
// Seeds 1..N when a file names none (scenarios/README.md says so).
constexpr std::uint64_t kDefaultSeedCount = 20;
// A process with more threads than this on one lock is a load test, not a scenario; it also bounds the spawns.
constexpr std::int64_t kMaxThreadsPerProcess = 64;
constexpr std::int64_t kMaxPermits = 1000;  // a semaphore's size: more than the clients any scenario runs

// fencing = true | false | "writes" | "reads-and-writes": true is "writes" (what files said before the
// modes existed), false is off.
void read_fencing(const Section& workload, Fencing& out) {
  const toml::node* node = workload.find("fencing");
  if (node == nullptr) return;
  if (const auto* flag = node->as_boolean()) {
    out = flag->get() ? Fencing::writes : Fencing::off;
    return;
  }
  const auto* text = node->as_string();
  if (text != nullptr && text->get() == "writes") {
    out = Fencing::writes;
  } else if (text != nullptr && text->get() == "reads-and-writes") {
    out = Fencing::reads_and_writes;
  } else {
    const std::string given = text != nullptr ? fmt::format("\"{}\"", text->get()) : type_name(*node);
    workload.fail_at("fencing", fmt::format("[workload] fencing must be true (= \"writes\"), false, \"writes\" or "
                                            "\"reads-and-writes\", not {}", given));
  }
}

}  // namespace

void read_run(const Section& top, Scenario& out, const std::string& default_name) {
  RunConfig& config = out.config;
  out.name = top.string("name").value_or(default_name);
  if (out.name.empty()) top.fail_at("name", "name must not be empty");
  config.scenario = out.name;
  out.description = top.string("description").value_or("");
  out.backend = top.choice("backend", {"mock", "redis"}).value_or("mock");
  config.variant = top.string("variant").value_or(config.variant);
  if (config.variant.empty()) top.fail_at("variant", "variant must not be empty");
  const std::vector<std::string>& ids = variant_ids();
  if (std::find(ids.begin(), ids.end(), config.variant) == ids.end()) {
    const std::vector<std::string_view> known(ids.begin(), ids.end());
    top.fail_at("variant", fmt::format("unknown lock variant '{}'{}; known: {}", config.variant,
                                       did_you_mean(config.variant, known), fmt::join(ids, ", ")));
  }
  out.reference = top.string("reference").value_or("");
  if (!out.reference.empty()) {
    const VariantRow* row = find_variant(out.reference);
    if (row == nullptr || row->user_scripts) {
      const std::vector<std::string_view> known(ids.begin(), ids.end());
      top.fail_at("reference", fmt::format("reference '{}' is not a catalogue lock{}; known: {}", out.reference,
                                           did_you_mean(out.reference, known), fmt::join(ids, ", ")));
    }
  }
  top.read_millis("duration_ms", config.duration_us, 1, kMaxMillis);
  top.read_millis("command_timeout_ms", config.command_timeout_us, 1, kMaxMillis);
  top.read_millis("active_expiry_interval_ms", config.active_expiry_interval_us, 1, kMaxMillis);
  top.read_integer("max_events", config.max_events, 1, kNoLimit);
}

void read_seeds(const Section& top, std::vector<std::uint64_t>& out) {
  // Two ways of naming seeds in one file is ambiguous; blame the later one, which the user probably added.
  const char* given = nullptr;
  for (const char* key : {"seeds", "seed", "seed_list"}) {
    if (!top.has(key)) continue;
    if (given != nullptr) {
      const bool later = top.find(key)->source().begin > top.find(given)->source().begin;
      top.fail_at(later ? key : given, fmt::format("give only one of seeds, seed and seed_list (found {} and {})",
                                                   given, key));
    }
    given = key;
  }
  out.clear();
  if (auto count = top.integer("seeds", 1, kMaxSeedCount)) {
    for (std::int64_t seed = 1; seed <= *count; ++seed) out.push_back(static_cast<std::uint64_t>(seed));
  } else if (auto seed = top.integer("seed", 0, kNoLimit)) {
    out.push_back(static_cast<std::uint64_t>(*seed));
  } else if (const toml::array* list = top.array("seed_list")) {
    if (list->empty()) top.fail_at("seed_list", "seed_list must not be empty");
    for (const toml::node& element : *list) {
      const auto* value = element.as_integer();
      if (value == nullptr) {
        fail(top.path(), element.source(),
             fmt::format("seed_list entries must be integers, not {}", type_name(element)));
      }
      if (value->get() < 0) {
        fail(top.path(), element.source(), fmt::format("seed_list entries must be >= 0, not {}", value->get()));
      }
      const auto seed = static_cast<std::uint64_t>(value->get());
      // A repeated seed would count one run twice in the verdicts.
      if (std::find(out.begin(), out.end(), seed) != out.end()) {
        fail(top.path(), element.source(), fmt::format("seed_list names seed {} twice", seed));
      }
      out.push_back(seed);
    }
  } else {
    // One seed is one roll of the dice: a file that names none gets enough runs for a verdict to mean something.
    for (std::uint64_t seed = 1; seed <= kDefaultSeedCount; ++seed) out.push_back(seed);
  }
}

void read_lock(const Section& top, LockOptions& out, RenewalConfig& renewal) {
  const auto lock = top.table("lock");
  if (!lock) return;
  lock->allow_only({"ttl_ms", "drift_ppm", "retry_delay_min_ms", "retry_delay_max_ms", "unknown_outcome_attempts",
                    "drift_floor_ms", "max_attempts", "idempotent_attempts", "watchdog", "renew_divisor",
                    "max_renewals", "max_hold_ms"});
  // Whether the variant can be wrapped is checked once the scripts are known (check_watchdog).
  renewal.watchdog = lock->boolean("watchdog").value_or(renewal.watchdog);
  lock->read_integer("renew_divisor", renewal.renew_divisor, 2, 1000);
  lock->read_integer("max_renewals", renewal.max_renewals, 0, kMaxU32);
  lock->read_millis("max_hold_ms", renewal.max_hold_us, 1, kMaxMillis);
  if (auto ttl = lock->integer("ttl_ms", kMinTtl.count(), kMaxTtl.count())) out.ttl = Millis(*ttl);
  lock->read_integer("drift_ppm", out.clock_drift_ppm, 0, kMaxPpm);
  if (auto floor = lock->integer("drift_floor_ms", 0, kMaxMillis)) out.drift_floor = Millis(*floor);
  if (auto low = lock->millis_as_micros("retry_delay_min_ms", 0, kMaxMillis)) out.retry.delay_min = Micros(*low);
  if (auto high = lock->millis_as_micros("retry_delay_max_ms", 0, kMaxMillis)) out.retry.delay_max = Micros(*high);
  lock->require_order("retry_delay_min_ms", out.retry.delay_min.count(), "retry_delay_max_ms",
                      out.retry.delay_max.count(), 1000);
  lock->read_integer("unknown_outcome_attempts", out.retry.unknown_outcome_attempts, 0, 1000);
  lock->read_integer("max_attempts", out.retry.max_attempts, 1, kMaxU32);
  lock->read_integer("idempotent_attempts", out.retry.idempotent_attempts, 1, 1000);
}

void read_workload(const Section& top, WorkloadConfig& out) {
  const auto workload = top.table("workload");
  if (!workload) return;
  workload->allow_only({"key", "wait_ms", "hold_min_ms", "hold_max_ms", "think_min_ms", "think_max_ms",
                        "max_acquires_per_client", "fencing", "nest_every", "nested_ttl_ms", "nested_hold_min_ms",
                        "nested_hold_max_ms", "readers_ppm", "check_lease_before_write", "write_latency_min_us",
                        "write_latency_max_us", "threads_per_process", "permits", "latch_count"});
  if (auto key = workload->string("key")) {
    if (key->empty() || key->size() > kMaxKeyBytes) {
      workload->fail_at("key", fmt::format("[workload] key must have 1 to {} bytes, not {}", kMaxKeyBytes,
                                           key->size()));
    }
    out.key = *key;
  }
  workload->read_millis("wait_ms", out.wait_us, 0, kMaxMillis);
  workload->read_millis("hold_min_ms", out.hold_min_us, 0, kMaxMillis);
  workload->read_millis("hold_max_ms", out.hold_max_us, 0, kMaxMillis);
  workload->require_order("hold_min_ms", out.hold_min_us, "hold_max_ms", out.hold_max_us, 1000);
  workload->read_millis("think_min_ms", out.think_min_us, 0, kMaxMillis);
  workload->read_millis("think_max_ms", out.think_max_us, 0, kMaxMillis);
  workload->require_order("think_min_ms", out.think_min_us, "think_max_ms", out.think_max_us, 1000);
  workload->read_integer("max_acquires_per_client", out.max_acquires_per_client, 1, kMaxU32);
  read_fencing(*workload, out.fencing);
  workload->read_integer("nest_every", out.nest_every, 0, kMaxU32);
  if (auto ttl = workload->integer("nested_ttl_ms", 0, kMaxTtl.count())) {
    if (*ttl != 0 && *ttl < kMinTtl.count()) {
      workload->fail_at("nested_ttl_ms", fmt::format("[workload] nested_ttl_ms must be 0 (the lock's TTL) or {} .. {}, "
                                                     "not {}", kMinTtl.count(), kMaxTtl.count(), *ttl));
    }
    out.nested_ttl_us = *ttl * 1000;
  }
  workload->read_millis("nested_hold_min_ms", out.nested_hold_min_us, 0, kMaxMillis);
  workload->read_millis("nested_hold_max_ms", out.nested_hold_max_us, 0, kMaxMillis);
  workload->require_order("nested_hold_min_ms", out.nested_hold_min_us, "nested_hold_max_ms", out.nested_hold_max_us,
                          1000);
  workload->read_integer("readers_ppm", out.readers_ppm, 0, kMaxPpm);
  out.check_lease_before_write = workload->boolean("check_lease_before_write").value_or(out.check_lease_before_write);
  workload->read_integer("write_latency_min_us", out.write_latency_min_us, 0, kMaxMicros);
  workload->read_integer("write_latency_max_us", out.write_latency_max_us, 0, kMaxMicros);
  workload->require_order("write_latency_min_us", out.write_latency_min_us, "write_latency_max_us",
                          out.write_latency_max_us, 1);  workload->read_integer("threads_per_process", out.threads_per_process, 1, kMaxThreadsPerProcess);
  workload->read_integer("permits", out.permits, 1, kMaxPermits);
  workload->read_integer("latch_count", out.latch_count, 1, kMaxPermits);
}

void check_threads(const Section& top, const Scenario& scenario) {
  const WorkloadConfig& workload = scenario.config.workload;
  if (workload.threads_per_process == 1) return;
  const Section table = *top.table("workload");
  if (counts_down(scenario.config.variant)) {
    table.fail_at("threads_per_process", fmt::format("[workload] threads_per_process = {} shares one lock object "
                                                     "between a process's threads; variant '{}' is a count-down latch, "
                                                     "which its processes count down and await one thread each",
                                                     workload.threads_per_process, scenario.config.variant));
  }
  const PublicType* type = public_type_of(scenario.config.variant);
  if (type == nullptr) {
    std::string known;
    for (const PublicType& each : public_types()) known += fmt::format("{}{} ({})", known.empty() ? "" : ", ", each.variant, each.name);
    table.fail_at("threads_per_process",
                  fmt::format("[workload] threads_per_process = {} shares one public lock object between a process's "
                              "threads; variant '{}' has no public type (those that do: {})",
                              workload.threads_per_process, scenario.config.variant, known));
  }
  if (workload.nest_every > 0) {
    table.fail_at("threads_per_process", fmt::format("[workload] threads_per_process = {} does not combine with "
                                                     "nest_every (the threads' nesting is not simulated yet)",
                                                     workload.threads_per_process));
  }
}

void check_watchdog(const Section& top, const std::string& variant, const Scenario::Scripts& scripts,
                    const RenewalConfig& renewal) {
  if (!renewal.watchdog) return;
  const std::string refused = watchdog_refusal(variant, !scripts.renew.empty());
  if (refused.empty()) return;
  top.table("lock")->fail_at("watchdog",
                             fmt::format("[lock] watchdog = true needs a variant that can renew: {}", refused));
}

}  // namespace lockcheck::sim::scenario_detail
