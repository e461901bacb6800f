#include "lockcheck/lease.hpp"

namespace lockcheck {

const char* to_string(AcquireStatus status) {
  switch (status) {
    case AcquireStatus::acquired: return "acquired";
    case AcquireStatus::busy: return "busy";
    case AcquireStatus::unreachable: return "unreachable";
    case AcquireStatus::unknown: return "unknown";
  }
  return "?";
}

const char* to_string(ReleaseStatus status) {
  switch (status) {
    case ReleaseStatus::released: return "released";
    case ReleaseStatus::not_owned: return "not_owned";
    case ReleaseStatus::unknown: return "unknown";
  }
  return "?";
}

const char* to_string(RenewStatus status) {
  switch (status) {
    case RenewStatus::renewed: return "renewed";
    case RenewStatus::lost: return "lost";
    case RenewStatus::unknown: return "unknown";
  }
  return "?";
}

}  // namespace lockcheck
