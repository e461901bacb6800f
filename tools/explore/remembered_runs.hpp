#pragma once
// The reference lock's simulations, remembered where they repeat. Explorer::take decides each property a run
// violated on its own, and each decision first runs the reference under that run's schedule and seed: the same
// simulation every time (a run is a function of its configuration and seed), judged for another property. On
// correct scripts under a clock jump, a run that broke three properties ran its reference three times.
#include <cstdint>
#include <memory>

#include "model/run_config.hpp"
#include "properties/history.hpp"

namespace lockcheck::explore {

// The history of `config` run on `seed`: one of the last few this thread ran when its configuration (as its
// scenario file states it, with the scripts' text) and seed match, else simulated now and remembered. A
// configuration no file can state (drawn fault streams, a duration of no whole milliseconds) is never remembered.
std::shared_ptr<const properties::History> simulated_history(const sim::RunConfig& config, std::uint64_t seed);

}  // namespace lockcheck::explore
