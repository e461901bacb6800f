#include "model/scenario.hpp"

#include <fmt/format.h>

namespace lockcheck::sim {

std::string_view to_string(Expectation::Expected expected) {
  switch (expected) {
    case Expectation::Expected::holds: return "holds";
    case Expectation::Expected::violated: return "violated";
    case Expectation::Expected::starved: return "starved";
  }
  return "?";
}

std::string external_client_refusal(const RunConfig& config) {
  const auto refusal = [](std::string_view setting) {
    return fmt::format("an external client holds one lease at a time on one thread and renews by its own library; {} "
                       "needs more of the lock than the protocol drives", setting);
  };
  const WorkloadConfig& workload = config.workload;
  if (workload.threads_per_process > 1) return refusal("[workload] threads_per_process > 1");
  if (workload.nest_every > 0) return refusal("[workload] nest_every (reentrant acquires)");
  if (workload.readers_ppm > 0) return refusal("[workload] readers (shared holds)");
  if (workload.permits > 1) return refusal("[workload] permits (a semaphore's holders)");
  if (config.renewal.watchdog) return refusal("[lock] watchdog");
  // A careful holder asks its library's lease; an external client's library answers `use` itself.
  if (workload.check_lease_before_write) return refusal("[workload] check_lease_before_write (the client's `use` decides)");
  return {};
}

}  // namespace lockcheck::sim
