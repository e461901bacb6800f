#pragma once
// A client's clock whose wall clock is set `offset` ahead (an NTP step, a VM resumed with an old clock), for the
// variants that send the client's wall clock to Redis. Monotonic time and sleeps are the inner clock's.
#include "lockcheck/clock.hpp"

namespace lockcheck::testing {

class SkewedClock final : public Clock {
 public:
  SkewedClock(Clock& inner, Millis offset) : inner_(inner), offset_(offset) {}
  MonoTime monotonic_now() override { return inner_.monotonic_now(); }
  Millis wall_now() override { return inner_.wall_now() + offset_; }
  Task<void> sleep(Micros duration) override { co_await inner_.sleep(duration); }

 private:
  Clock& inner_;
  Millis offset_;
};

}  // namespace lockcheck::testing
