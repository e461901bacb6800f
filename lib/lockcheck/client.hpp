#pragma once
// A production client: the hiredis port, the system clock and the OS CSPRNG, bundled for the locks.
//
// Thread safety: a Client may be shared by any number of threads and Mutexes. Its Redis calls are
// serialised (one request in flight per Client), so a thread waits behind another's call for at most that
// call's command timeout; give threads that must not wait on each other a Client each. Tokens come from
// getrandom(2) on every acquire, never from a seeded or shared PRNG.
// Every call is bounded by ConnectionOptions::connect_timeout and command_timeout: a paused, dead or slow
// server makes calls fail or report an unknown outcome, never block forever (lib/test/broken_connection_redis_test.cpp).
#include <memory>
#include <vector>

#include "lockcheck/clock.hpp"
#include "lockcheck/entropy.hpp"
#include "lockcheck/hiredis_port.hpp"

namespace lockcheck {

class Client {
 public:
  // Connects to one Redis now, so a bad host, port or password fails here with a clear ConnectionError.
  explicit Client(ConnectionOptions options);
  // Several independent nodes (for Redlock); connections are made on first use, as nodes may be down.
  explicit Client(std::vector<ConnectionOptions> nodes);

  Port& port() { return port_; }
  Clock& clock() { return clock_; }
  Entropy& entropy() { return entropy_; }

 private:
  HiredisPort port_;
  SystemClock clock_;
  OsEntropy entropy_;
};

}  // namespace lockcheck
