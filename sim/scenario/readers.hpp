#pragma once
// The readers of a scenario file's parts, one per table, called by parse_scenario in dependency order:
// the run and topology first, because faults and nemesis are checked against the client and node counts.
#include <filesystem>

#include "scenario/scenario.hpp"
#include "scenario/section.hpp"

namespace lockcheck::sim::scenario_detail {

// name, description, backend, variant, duration_ms, command_timeout_ms, active_expiry_interval_ms, max_events.
void read_run(const Section& top, Scenario& out, const std::string& default_name);
// seeds = N | seed = S | seed_list = [...]
void read_seeds(const Section& top, std::vector<std::uint64_t>& out);
void read_lock(const Section& top, LockOptions& out, RenewalConfig& renewal);
void read_workload(const Section& top, WorkloadConfig& out);
// threads_per_process > 1: refused, at that key, for a variant without a public lock type or with nesting.
// Needs [workload] and the variant read first.
void check_threads(const Section& top, const Scenario& scenario);

void read_clients(const Section& top, std::vector<ClientConfig>& out);
void read_nodes(const Section& top, std::vector<NodeConfig>& out);
// [cluster]: refused next to [[nodes]]; sets out.cluster and builds out.nodes from it.
void read_cluster(const Section& top, RunConfig& out);
// [sentinel]: refused next to [[nodes]] or [cluster]; sets out.sentinel and builds out.nodes from it.
void read_sentinel(const Section& top, RunConfig& out);
// Needs the clients and nodes read first: link overrides name them.
void read_network(const Section& top, RunConfig& out);

void read_faults(const Section& top, RunConfig& config);
void read_nemesis(const Section& top, NemesisConfig& out);

// [scripts]: required for variant "script", refused otherwise. Paths resolve against `base_dir`; with
// `check_files`, a missing file is an error at its line.
void read_scripts(const Section& top, const std::string& variant, const std::filesystem::path& base_dir,
                  bool check_files, Scenario::Scripts& out, UserScripts& sources);
// [token_wait] (replicas, timeout_ms): only for variant "token-wait"; needs [lock] read first (the timeout is
// bounded by the TTL).
void read_token_wait(const Section& top, const std::string& variant, const LockOptions& lock, TokenWaitOptions& out);
// [client] (command, keys): an external lock client; needs the run, [lock] and [workload] read first.
void read_client(const Section& top, Scenario& out);
// [expect]: the verdicts, or none = "why" (then `none_because`). With `required` (a file, not text) a missing
// table is refused: a file without expectations passes whatever its runs show.
void read_expectations(const Section& top, bool required, std::vector<Expectation>& out, std::string& none_because);
// server = "redis-server" | "serve" (`forced`, when not empty, is the command line's --server and wins): with
// "serve", refuses at its line each part a served mock cannot run (replicas, [cluster], [sentinel], failovers,
// restarts that keep data). Needs every table read first.
void read_server(const Section& top, Scenario& out, std::string_view forced);
// [lock] watchdog = true: refused, at that key, for a variant that cannot renew (registry.hpp's
// watchdog_refusal). Needs the variant and [scripts] read first (a script renews only with a renew.lua).
void check_watchdog(const Section& top, const std::string& variant, const Scenario::Scripts& scripts,
                    const RenewalConfig& renewal);

// Refuses, at its key and with the fix, a setting the variant would silently ignore: a renew.lua without
// [lock] watchdog = true, renewal keys for a lock that does not renew, readers_ppm without a shared mode,
// fencing without fencing tokens, nesting of a non-reentrant lock, nested_* keys without nest_every.
// Needs every table read first.
void check_settings_apply(const Section& top, const Scenario& scenario);

// "a year" style bounds shared by the readers.
inline constexpr std::int64_t kMaxPpm = 1000000;
// A clock rate of 1e6 + drift must stay positive or the monotonic clock would stop or run backwards.
inline constexpr std::int64_t kMinDriftPpm = -999999;

}  // namespace lockcheck::sim::scenario_detail
