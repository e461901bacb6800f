#include "workload/careful_write.hpp"

#include <fmt/format.h>

namespace lockcheck::sim {

std::string careful_write_refusal(const WorkloadConfig& workload, const Lease& lease) {
  if (lease.known_lost || (lease.renewal && lease.renewal->lost())) return "lease marked lost";
  if (lease.lost()) return "lease expired by the holder's clock";
  const std::int64_t remaining_us = lease.remaining().count();
  if (remaining_us <= workload.write_latency_max_us) {
    return fmt::format("lease has {} us left by the holder's clock, the write may take {} us", remaining_us,
                       workload.write_latency_max_us);
  }
  return "";
}

std::int64_t draw_write_latency_us(const WorkloadConfig& workload, Prng& prng) {
  if (workload.write_latency_max_us == 0) return 0;
  return prng.between(workload.write_latency_min_us, workload.write_latency_max_us);
}

}  // namespace lockcheck::sim
