#pragma once
// results.json: the comparison for machines. Keys in a fixed order, integers only (times in µs), no
// timestamps: the same comparison gives the same bytes. Every cell carries its backend.
#include <string>

#include "comparison.hpp"

namespace lockcheck::reports {

std::string results_json(const Comparison& comparison);

}  // namespace lockcheck::reports
