#pragma once
// A TCP proxy on a loopback port that delays every byte by a fixed time in each direction. The run puts one
// between each replica and its master, so replication lag is real: a write that is still in the proxy when
// the master is killed never reaches the replica (F5, failover without the key). When either side closes,
// the connection pair closes and what was still queued is dropped, as a crashed host's in-flight data is.
// Production code (sockets, a thread, poll); bounded: stop() ends the thread within one poll interval.
#include <atomic>
#include <cstdint>
#include <thread>

namespace lockcheck::redis_backend {

class DelayProxy {
 public:
  DelayProxy(int target_port, std::int64_t delay_us);
  ~DelayProxy();
  DelayProxy(const DelayProxy&) = delete;
  DelayProxy& operator=(const DelayProxy&) = delete;

  int port() const { return port_; }
  // Takes effect for bytes read from now on (a replica syncs first with no delay, then lags).
  void set_delay(std::int64_t delay_us) { delay_us_ = delay_us; }
  void stop();

 private:
  void loop();

  int target_port_;
  std::atomic<std::int64_t> delay_us_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace lockcheck::redis_backend
