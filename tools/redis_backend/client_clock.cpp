#include "client_clock.hpp"

#include <time.h>

#include <thread>

#include "record_sink.hpp"

namespace lockcheck::redis_backend {

struct ClientClockState::Layout {
  volatile std::uint64_t sequence;
  volatile std::int64_t anchor_true_ns;   // CLOCK_MONOTONIC at the last drift change
  volatile std::int64_t anchor_local_ns;  // the process's monotonic reading then
  volatile std::int64_t drift_ppm;
  volatile std::int64_t wall_offset_ns;   // skew plus every jump
};

struct ClientClockState::Reading {
  std::int64_t anchor_true_ns, anchor_local_ns, drift_ppm, wall_offset_ns;
};

ClientClockState::ClientClockState(std::string path, bool create, std::int64_t start_ns, std::int64_t wall_offset_us,
                                   std::int64_t drift_ppm)
    : file_(std::move(path), sizeof(Layout), create) {
  if (!create) return;
  Layout& state = layout();
  write_sequenced(state.sequence, [&] {
    state.anchor_true_ns = start_ns;
    state.anchor_local_ns = start_ns;
    state.drift_ppm = drift_ppm;
    state.wall_offset_ns = wall_offset_us * 1000;
  });
}

ClientClockState::Layout& ClientClockState::layout() const { return *static_cast<Layout*>(file_.data()); }

ClientClockState::Reading ClientClockState::read() const {
  const Layout& state = layout();
  return read_sequenced(state.sequence, [&] {
    return Reading{state.anchor_true_ns, state.anchor_local_ns, state.drift_ppm, state.wall_offset_ns};
  });
}

std::int64_t ClientClockState::local_at(std::int64_t true_ns) const {
  const Reading r = read();
  const std::int64_t elapsed = true_ns - r.anchor_true_ns;
  return r.anchor_local_ns + elapsed + elapsed * r.drift_ppm / 1'000'000;
}

std::int64_t ClientClockState::true_time_of(std::int64_t local_ns) const {
  const Reading r = read();
  const std::int64_t local_elapsed = local_ns - r.anchor_local_ns;
  return r.anchor_true_ns + local_elapsed * 1'000'000 / (1'000'000 + r.drift_ppm);
}

std::int64_t ClientClockState::wall_offset_at(std::int64_t true_ns) const {
  return local_at(true_ns) - true_ns + read().wall_offset_ns;
}

std::int64_t ClientClockState::drift_ppm() const { return read().drift_ppm; }

void ClientClockState::start_at(std::int64_t start_ns) {
  Layout& state = layout();
  write_sequenced(state.sequence, [&] {
    state.anchor_true_ns = start_ns;
    state.anchor_local_ns = start_ns;
  });
}

void ClientClockState::jump_wall(std::int64_t delta_us) {
  Layout& state = layout();
  const Reading r = read();
  write_sequenced(state.sequence, [&] { state.wall_offset_ns = r.wall_offset_ns + delta_us * 1000; });
}

void ClientClockState::set_drift(std::int64_t drift_ppm) {
  Layout& state = layout();
  const std::int64_t now = monotonic_ns();
  const std::int64_t local = local_at(now);
  write_sequenced(state.sequence, [&] {
    state.anchor_true_ns = now;
    state.anchor_local_ns = local;
    state.drift_ppm = drift_ppm;
  });
}

MonoTime ClientClock::monotonic_now() { return MonoTime(state_.local_at(monotonic_ns()) / 1000); }

Millis ClientClock::wall_now() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  const std::int64_t real_ns = static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
  return Millis((real_ns + state_.wall_offset_at(monotonic_ns())) / 1'000'000);
}

// Sleeps until this clock has advanced `duration` (a fast clock gets there sooner in real time).
Micros ClientClock::true_duration(Micros duration) const {
  const std::int64_t ppm = state_.drift_ppm();
  return std::chrono::duration_cast<Micros>(
      std::chrono::nanoseconds(duration.count() * 1000 * 1'000'000 / (1'000'000 + ppm)));
}

Task<void> ClientClock::sleep(Micros duration) {
  if (duration > Micros::zero()) std::this_thread::sleep_for(true_duration(duration));
  co_return;
}

Task<void> ClientClock::sleep_unless_stopped(Micros duration, StopSignal& stop) {
  if (duration > Micros::zero()) stop.wait_for(true_duration(duration));
  co_return;
}

}  // namespace lockcheck::redis_backend
