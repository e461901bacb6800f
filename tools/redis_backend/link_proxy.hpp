#pragma once
// The fault proxy: a TCP proxy on a loopback port in front of one server, for one link. It delays every byte
// by a settable time in each direction, and while partitioned it silently drops every byte both ways (a DROP
// partition: the client's command times out, its outcome unknown, as in the simulator). A client link
// (`resp`) is cut into whole RESP2 messages, so it can also lose single requests and replies at set rates.
// The run puts one between each replica and its master, so replication lag is real (a write still in the
// proxy when the master is killed never reaches the replica: F5), and, when a scenario has partitions or
// slow nodes, one per client-node link; on a cluster one in front of each node's bus port, where it can also
// drop the connections of one source address (a node cut off from the bus). When either side closes, the connection pair closes and what was
// still queued is dropped, as a crashed host's in-flight data is.
// Production code (sockets, a thread, poll); bounded: stop() ends the thread within one poll interval.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "model/prng.hpp"
#include "stream_filter.hpp"

namespace lockcheck::redis_backend {

class LinkProxy {
 public:
  // `resp`: the link carries RESP2 both ways (a client link, not a replication stream); `seed` draws losses.
  LinkProxy(int target_port, std::int64_t delay_us, bool resp = false, std::uint64_t seed = 0);
  // Links to several servers with the same settings, served by one thread: port(i) leads to target_ports[i].
  // Where many links carry requests at once (a Redlock fan-out), one thread wakes once for all of them
  // instead of one per link, which on a small machine would queue the wake-ups behind each other.
  LinkProxy(const std::vector<int>& target_ports, std::int64_t delay_us);
  ~LinkProxy();
  LinkProxy(const LinkProxy&) = delete;
  LinkProxy& operator=(const LinkProxy&) = delete;

  int port(std::size_t link = 0) const { return ports_.at(link); }
  // Takes effect for bytes read from now on (a replica syncs first with no delay, then lags).
  void set_delay(std::int64_t delay_us) { delay_us_ = delay_us; }
  // Partitioned: bytes already queued and every byte from now on are dropped, until healed.
  void set_partitioned(bool partitioned) { partitioned_ = partitioned; }
  // Connections accepted from now on lead to `port` (a front made before its server, whose address the
  // server announces: a [sentinel] data node's replica-announce-port).
  void set_target_port(int port);
  // The same for every link of a multi-link proxy: port(i) leads to ports[i] for connections accepted from now.
  void set_target_ports(const std::vector<int>& ports);
  // Connections accepted from these source addresses ("127.0.0.12") drop every byte both ways, queued ones
  // included, until the set changes: a cluster node whose outgoing bus links come from an address of its own
  // (bind-source-addr) is cut off from this proxy's target without cutting the other nodes' links to it.
  void set_partitioned_sources(std::set<std::string> addresses);
  // Each request (client to server) or reply (back) is dropped with this probability; `resp` links only.
  void set_loss(std::uint32_t request_ppm, std::uint32_t reply_ppm) {
    loss_ppm_[0] = request_ppm;
    loss_ppm_[1] = reply_ppm;
  }
  // Connections accepted from now on pass their bytes, both ways, through a filter of their own made by
  // `make` (an external client's address rewriting on a cluster or a [sentinel]: address_filter.hpp), before any fault.
  void set_stream_filter(std::function<std::unique_ptr<StreamFilter>()> make);
  void stop();

 private:
  void start();
  void close_listeners();
  void loop();

  std::mutex targets_mutex_;
  std::vector<int> target_ports_;  // guarded by targets_mutex_
  std::function<std::unique_ptr<StreamFilter>()> make_filter_;  // guarded by targets_mutex_
  std::atomic<std::int64_t> delay_us_;
  std::atomic<bool> partitioned_{false};
  std::mutex sources_mutex_;
  std::set<std::uint32_t> partitioned_sources_;  // network byte order; guarded by sources_mutex_
  bool resp_;
  std::atomic<std::uint32_t> loss_ppm_[2] = {0, 0};
  sim::Prng prng_;  // used by the proxy's thread only
  std::vector<int> listen_fds_;  // listen_fds_[i] accepts the connections for target_ports_[i]
  std::vector<int> ports_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace lockcheck::redis_backend
