#include "client_wall_mirror.hpp"

#include <time.h>

#include <chrono>
#include <cstdlib>

namespace lockcheck::redis_backend {
namespace {

std::int64_t monotonic_now_ns() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

}  // namespace

ClientWallMirror::ClientWallMirror(const ClientClockState& state, std::string offset_path)
    : state_(state), offset_(std::move(offset_path)) {
  follow_once();  // before the client starts: a skewed client is skewed from its first reading
  thread_ = std::thread([this] {
    // Ends within one period of the destructor's request; 5 ms is well inside any TTL a scenario sets.
    while (!stopping_) {
      follow_once();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
}

ClientWallMirror::~ClientWallMirror() {
  stopping_ = true;
  thread_.join();
}

void ClientWallMirror::follow_once() {
  const std::int64_t drift_ppm = state_.drift_ppm();
  if (drift_ppm != offset_.drift_ppm()) offset_.set_drift(drift_ppm);
  const std::int64_t wanted_ns = state_.wall_offset_at(monotonic_now_ns());
  const std::int64_t delta_ns = wanted_ns - offset_.offset_ns();
  // A jump, or the two drift formulas parting by more than a tenth of a millisecond.
  if (std::llabs(delta_ns) > 100'000) offset_.jump(delta_ns / 1000);
}

}  // namespace lockcheck::redis_backend
