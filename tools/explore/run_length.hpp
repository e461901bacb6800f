#pragma once
// How long guided's fresh runs simulate. A run costs CPU in proportion to its simulated events, and most
// lock bugs show within a few TTLs (the small-scope hypothesis), so guided starts with short runs and
// lengthens them as the search goes on without a find: the run's length follows the Luby sequence
// (1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...: Luby, Sinclair and Zuckerman 1993, within a log factor of the best
// fixed length for any unknown distribution of "how long until it shows") in eighths of the base duration.
// Only guided uses it: all-on and swarm keep the base duration, the benchmark's baseline unchanged.
#include <cstdint>
#include <string>

#include "model/run_config.hpp"

namespace lockcheck::explore {

// The i-th term (1-based) of the Luby sequence. Bounded: i below 2^63.
std::uint64_t luby(std::uint64_t i);

// The shortest run that can show a violation of `property` (any property when empty): two TTLs (a lease
// must expire for a lock to break); for bounded_unavailability, one TTL for a holder to take the lock and
// the fault to strike, then the TTL and the bound the checker allows before it calls the lock unavailable.
std::int64_t shortest_run_us(const sim::RunConfig& base, const std::string& property);

// The simulated duration of guided's `fresh_index`-th fresh run (1-based): the base duration times
// luby(fresh_index) / 8, never above the base, never below `shortest_us`, in whole milliseconds (the
// scenario format's unit).
std::int64_t fresh_duration_us(const sim::RunConfig& base, std::uint64_t fresh_index, std::int64_t shortest_us);

}  // namespace lockcheck::explore
