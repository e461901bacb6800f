#pragma once
// An external lock client's wall clock (lockcheck judge), moved as the run moves the client's clock: the
// client's runtime reads the system clock, so the worker keeps an offset file (clock_offset.h) that the clock
// shim, preloaded into the client, reads. It follows the process's ClientClockState (skew, client_clock_jump,
// client_clock_drift) within one polling period. Only the wall clock moves, as for a redis-server: a library
// that measures its lease on the monotonic clock sees no drift. Production code (a thread).
#include <atomic>
#include <string>
#include <thread>

#include "client_clock.hpp"
#include "server_clock.hpp"

namespace lockcheck::redis_backend {

class ClientWallMirror {
 public:
  ClientWallMirror(const ClientClockState& state, std::string offset_path);
  ~ClientWallMirror();
  ClientWallMirror(const ClientWallMirror&) = delete;
  ClientWallMirror& operator=(const ClientWallMirror&) = delete;

  // The file the shim maps (LOCKCHECK_CLOCK_FILE).
  const std::string& path() const { return offset_.path(); }

 private:
  void follow_once();

  const ClientClockState& state_;
  ServerClock offset_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace lockcheck::redis_backend
