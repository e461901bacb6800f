#pragma once
// The real redis-sentinel processes of a [sentinel] run: `count` sentinels on free loopback ports, each in a
// private temporary directory (lib/testing's RedisServer::sentinel, stopped by pid), monitoring the master
// at `master_port` (the address the sentinels and the replicas share, topology.hpp) with the scenario's
// quorum, down-after-milliseconds, failover-timeout and parallel-syncs. Each sentinel sits behind a front
// proxy it announces and dials out from an address of its own, so sentinels can be split from each other.
//
// Sentinel's own periods are shortened with SENTINEL DEBUG (Redis 7.0), so a run of a few seconds sees
// what a production deployment sees in tens of seconds: INFO every `info_period_ms` instead of 10 s (how
// soon a sentinel notices a role change) and hello messages every `publish_period_ms` instead of 2 s (how
// soon the sentinels find each other; a node that reports itself master while the sentinels know it as a
// replica is re-pointed after 4 publish periods, 8 s by default), and a sentinel that sees the master down
// asks the others for their view every `ask_period_ms` instead of every 1 s (how soon they agree).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/run_config.hpp"
#include "link_proxy.hpp"
#include "redis_server.hpp"

namespace lockcheck::redis_backend {

struct SentinelPeriods {
  std::int64_t info_period_ms = 1000;
  std::int64_t publish_period_ms = 250;
  std::int64_t ask_period_ms = 100;
};

class SentinelGroup {
 public:
  SentinelGroup(const sim::SentinelConfig& config, int master_port, SentinelPeriods periods = {});

  int count() const { return static_cast<int>(sentinels_.size()); }
  // Sentinels reach each other only through fronts: each announces its front (`sentinel announce-port`) and
  // dials out from an address of its own (`bind-source-addr`), so a split can cut sentinel-to-sentinel links.
  static std::string source_address(int sentinel) { return "127.0.0." + std::to_string(40 + sentinel); }
  // Cuts the last `on_master_side` sentinels (the simulator's choice) off from the others, both ways.
  void split_sides(int on_master_side);
  void heal();
  bool on_master_side(int sentinel, int on_master_side) const { return sentinel >= count() - on_master_side; }
  int port(int sentinel) const { return sentinels_.at(static_cast<std::size_t>(sentinel))->port(); }
  // The port it announces (its front's): how the sentinels name each other (SENTINEL SENTINELS, hellos).
  int announced_port(int sentinel) const { return fronts_.at(static_cast<std::size_t>(sentinel))->port(); }
  // Waits (at most `limit_ms`) until every sentinel knows every replica as a linked replica and every other
  // sentinel; returns how long that took. Throws when the group did not form in time.
  std::int64_t wait_formed(int replicas, std::int64_t limit_ms = 10000) const;
  // SENTINEL FAILOVER at the first sentinel that accepts it; the refusals ("" when one accepted).
  std::string request_failover() const;

 private:
  bool formed(int sentinel, int replicas) const;

  std::string master_name_;
  std::vector<std::unique_ptr<LinkProxy>> fronts_;
  std::vector<std::unique_ptr<testing::RedisServer>> sentinels_;
};

}  // namespace lockcheck::redis_backend
