#include "history_closed.hpp"

#include <fmt/format.h>

namespace lockcheck::properties {

std::string history_cut_short(const History& history) {
  if (history.closed) return "";
  const std::int64_t last_us = history.events.empty() ? 0 : event_time(history.events.back());
  const std::string run_end =
      history.meta.end_us >= 0 ? fmt::format("the run ends at t={:.3f} s (meta \"end\")", history.meta.end_us / 1e6)
                               : std::string("its meta line gives no \"end\"");
  return fmt::format(
      "the history is cut short: its last line (i={}) is at t={:.3f} s, {}, and the closing {{\"kind\":\"end\"}} line "
      "is missing (a run stopped by the event limit, or a file cut off); verdicts on part of a run are not a pass",
      history.events.size() - 1, last_us / 1e6, run_end);
}

}  // namespace lockcheck::properties
