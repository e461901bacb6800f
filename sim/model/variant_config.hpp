#pragma once
// A catalogue variant's base configuration: the fault-free run in which the variant is exercised at all, from
// its registry row's comparison workload (lib/lockcheck/variants/variant_table.cpp). `lockcheck compare`
// applies its fault families to it; explore starts its search from it.
#include <cstdint>
#include <string>

#include "model/run_config.hpp"

namespace lockcheck::sim {

// The TTL of every base configuration, so that compare's columns mean the same thing in every row.
inline constexpr std::int64_t kBaseTtlMs = 1000;

// A comparison row "<id>+watchdog" is the variant `id` wrapped in a watchdog (a scenario file's
// [lock] watchdog = true): split_watchdog("script+watchdog") is {"script", true}, of "token" {"token", false}.
struct RowVariant {
  std::string id;
  bool watchdog = false;
};
RowVariant split_watchdog(const std::string& row);

// The fault-free configuration of one variant (or "<id>+watchdog" row): the same workload for all, plus what a
// variant needs to be exercised at all (Redlock five masters, reentrant variants nested acquires, read-write
// variants readers, renewing ones holds past the TTL).
sim::RunConfig variant_base_config(const std::string& variant);

// Variants compare skips unless the user supplies something (the `script` variant, also as
// "script+watchdog", needs the user's scripts).
bool variant_needs_user_scripts(const std::string& variant);

}  // namespace lockcheck::sim
