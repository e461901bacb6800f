#pragma once
// results.json: the comparison for machines. Keys in a fixed order, integers only (times in µs), no
// timestamps: the same comparison gives the same bytes. Every cell carries its backend.
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "comparison.hpp"

namespace lockcheck::reports {

std::string results_json(const Comparison& comparison);

// A workload as results.json (and the shard file) writes it: every field, times in µs.
void to_json(nlohmann::ordered_json& out, const Workload& workload);

}  // namespace lockcheck::reports
