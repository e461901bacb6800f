#pragma once
// The history op a background renewal's event becomes (f "renew"), shared by the simulator (World) and the
// redis backend's workers, so that both backends write the same lines for the same event.
#include <cstdint>
#include <optional>

#include "model/history.hpp"
#include "lockcheck/variants/watchdog_lock.hpp"

namespace lockcheck::sim {

// The op's fields. The loop's end (`stopped`) becomes an `info` op with f "renewal_stop" and the reason in
// `detail` (released, max_renewals reached, ...), so a renewal that stops while its holder is still inside
// is visible in the history, not only through the lock's own notices. The validity
// times (true time and the process's local time, both in the history's microseconds) are written only for a
// renewal that succeeded.
Json renew_op_fields(const RenewalEvent& event, std::int64_t process, std::int64_t local_us,
                     std::int64_t valid_until_true_us, std::int64_t valid_until_local_us);
// The same fields onto a line being recorded (the simulator's path: no Json object in between).
void add_renew_op_fields(HistoryLine& line, const RenewalEvent& event, std::int64_t process, std::int64_t local_us,
                         std::int64_t valid_until_true_us, std::int64_t valid_until_local_us);

}  // namespace lockcheck::sim
