#include "sentinel_group.hpp"

#include <fmt/format.h>

#include <chrono>
#include <set>
#include <stdexcept>
#include <thread>

#include "server_process.hpp"

namespace lockcheck::redis_backend {
namespace {

// SENTINEL REPLICAS / SENTINELS answer one flat name-value list per instance (RESP2).
std::string field_of(const Reply& instance, const std::string& name) {
  for (std::size_t i = 0; i + 1 < instance.elements.size(); i += 2) {
    if (instance.elements[i].text == name) return instance.elements[i + 1].text;
  }
  return {};
}

}  // namespace

SentinelGroup::SentinelGroup(const sim::SentinelConfig& config, int master_port, SentinelPeriods periods)
    : master_name_(config.master_name) {
  const std::string& name = config.master_name;
  const std::string lines = fmt::format(
      "sentinel monitor {0} 127.0.0.1 {1} {2}\nsentinel down-after-milliseconds {0} {3}\n"
      "sentinel failover-timeout {0} {4}\nsentinel parallel-syncs {0} {5}",
      name, master_port, config.quorum, config.down_after_us / 1000, config.failover_timeout_us / 1000, config.parallel_syncs);
  for (int i = 0; i < config.sentinels; ++i) {
    // The front exists before its sentinel, which announces its port, and leads to it once it listens.
    fronts_.push_back(std::make_unique<LinkProxy>(0, 0));
    sentinels_.push_back(testing::RedisServer::sentinel(
        lines + fmt::format("\nsentinel announce-ip 127.0.0.1\nsentinel announce-port {}\nbind-source-addr {}",
                            fronts_.back()->port(), source_address(i))));
    fronts_.back()->set_target_port(sentinels_.back()->port());
    run_command(sentinels_.back()->port(), {"SENTINEL", "DEBUG", "info-period", std::to_string(periods.info_period_ms),
                                            "publish-period", std::to_string(periods.publish_period_ms), "ask-period",
                                            std::to_string(periods.ask_period_ms)});
  }
}

bool SentinelGroup::formed(int sentinel, int replicas) const {
  const Reply known = run_command(port(sentinel), {"SENTINEL", "REPLICAS", master_name_});
  if (static_cast<int>(known.elements.size()) != replicas) return false;
  for (const Reply& replica : known.elements) {
    // Linked and heard from: "slave" alone (no s_down, no disconnected), its link to the master up.
    if (field_of(replica, "flags") != "slave" || field_of(replica, "master-link-status") != "ok") return false;
  }
  return static_cast<int>(run_command(port(sentinel), {"SENTINEL", "SENTINELS", master_name_}).elements.size()) == count() - 1;
}

std::int64_t SentinelGroup::wait_formed(int replicas, std::int64_t limit_ms) const {
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed_ms = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  };
  for (int sentinel = 0; sentinel < count(); ++sentinel) {
    while (!formed(sentinel, replicas)) {
      if (elapsed_ms() > limit_ms) {
        throw std::runtime_error(fmt::format("sentinel {} did not see {} replica(s) and {} other sentinel(s) within {} ms",
                                             sentinel, replicas, count() - 1, limit_ms));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  return elapsed_ms();
}

void SentinelGroup::split_sides(int on_master_side) {
  std::set<std::string> master_side, other_side;
  for (int sentinel = 0; sentinel < count(); ++sentinel) {
    (this->on_master_side(sentinel, on_master_side) ? master_side : other_side).insert(source_address(sentinel));
  }
  for (int sentinel = 0; sentinel < count(); ++sentinel) {
    fronts_[static_cast<std::size_t>(sentinel)]->set_partitioned_sources(this->on_master_side(sentinel, on_master_side) ? other_side : master_side);
  }
}

void SentinelGroup::heal() {
  for (auto& front : fronts_) front->set_partitioned_sources({});
}

std::string SentinelGroup::request_failover() const {
  std::string refusals;
  for (int sentinel = 0; sentinel < count(); ++sentinel) {
    try {
      run_command(port(sentinel), {"SENTINEL", "FAILOVER", master_name_});
      return {};
    } catch (const std::runtime_error& refused) {
      refusals += (refusals.empty() ? "" : "; ") + std::string(refused.what());
    }
  }
  return refusals;
}

}  // namespace lockcheck::redis_backend
