#pragma once
// The claim a scenario makes with `[expect] progress = "starved"`: no client ever acquires the lock, because
// the server refuses it (a lock whose keys span cluster slots gets CROSSSLOT on every acquire). Judged per
// history like a property, so a scenario that can only starve has an expectation that can fail: an
// acquisition, or a refusal for another reason than the one stated, violates it.
#include <string_view>

#include "history.hpp"
#include "verdict.hpp"

namespace lockcheck::properties {

inline constexpr std::string_view kStarvedProperty = "progress";

// holds: acquire attempts, none granted, and (when `because` is given) the first server error contains it.
// violated: an acquisition (witness: the first), or no such error. unknown: no client tried to acquire.
Verdict check_starved(const History& history, std::string_view because);

}  // namespace lockcheck::properties
