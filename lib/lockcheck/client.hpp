#pragma once
// A production client: the hiredis port, the system clock and the OS CSPRNG, bundled for the locks.
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
