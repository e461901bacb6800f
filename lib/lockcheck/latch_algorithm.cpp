#include "lockcheck/latch_algorithm.hpp"

namespace lockcheck {

const char* to_string(CountDownStatus status) {
  switch (status) {
    case CountDownStatus::counted: return "counted";
    case CountDownStatus::unreachable: return "unreachable";
    case CountDownStatus::unknown: return "unknown";
  }
  return "unknown";
}

const char* to_string(LatchWaitStatus status) {
  switch (status) {
    case LatchWaitStatus::opened: return "opened";
    case LatchWaitStatus::timed_out: return "timed_out";
    case LatchWaitStatus::unreachable: return "unreachable";
  }
  return "timed_out";
}

Task<AcquireResult> LatchAlgorithm::acquire(std::string key, Micros /*wait*/) {
  throw InvalidArgument("latch '" + key + "' has no acquire: count_down() and wait() it");
  co_return AcquireResult{};
}

Task<ReleaseStatus> LatchAlgorithm::release(Lease& lease) {
  throw InvalidArgument("latch '" + lease.key + "' hands out no lease to release");
  co_return ReleaseStatus::unknown;
}

Task<RenewStatus> LatchAlgorithm::renew(Lease& lease) {
  throw InvalidArgument("latch '" + lease.key + "' hands out no lease to renew");
  co_return RenewStatus::unknown;
}

}  // namespace lockcheck
