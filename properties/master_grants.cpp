#include "master_grants.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "describe.hpp"
#include "history_facts.hpp"
#include "server_holders.hpp"

namespace lockcheck::properties {

std::optional<MasterGrants::Overlap> MasterGrants::overlapped(const ServerEvent& event, std::int64_t owner) const {
  for (const Grant& earlier : live_) {
    if (earlier.key != event.key || earlier.owner == owner) continue;
    if (earlier.entitled_until_us != kForever && event.t >= earlier.entitled_until_us - earlier.tolerance_us) continue;
    // The failover line that made a node keeping this grant and the granting node rivals, then or now.
    std::int64_t rivalry_i = -1;
    for (const std::int64_t node : earlier.kept_on) {
      if (node == event.node || rivalry_i >= 0) continue;
      const auto then = earlier.rivals.find(event.node);
      if (node == earlier.node && then != earlier.rivals.end()) rivalry_i = then->second;
      const std::map<std::int64_t, std::int64_t> now = roles_.rivals(node);
      if (const auto it = now.find(event.node); rivalry_i < 0 && it != now.end()) rivalry_i = it->second;
    }
    if (rivalry_i < 0) continue;
    std::vector<std::int64_t> witnesses{earlier.created_i, rivalry_i, event.i};
    std::sort(witnesses.begin(), witnesses.end());
    const std::string until = earlier.entitled_until_us == kForever
                                  ? std::string("its owner's lease")
                                  : fmt::format("t={}", format_time_us(earlier.entitled_until_us));
    std::string cause = fmt::format(
        "two masters at once: node {} granted {} the lock at t={} while {}'s instance (token {}) granted by node {} "
        "at t={} was still entitled (until {}); {}; {}",
        event.node, owner_name(owner), format_time_us(event.t), owner_name(earlier.owner), short_token(earlier.token),
        earlier.node, format_time_us(earlier.t_us), until, earlier.role, roles_.describe(event.node));
    return Overlap{earlier.created_i, std::move(witnesses), std::move(cause)};
  }
  return std::nullopt;
}

void MasterGrants::add(Grant grant) {
  // Grants whose entitlement ended can overlap nothing later: keep the list to the live ones.
  const std::int64_t now = grant.t_us;
  std::erase_if(live_, [now](const Grant& old) {
    return old.entitled_until_us != kForever && old.entitled_until_us - old.tolerance_us <= now;
  });
  grant.kept_on.insert(grant.node);
  live_.push_back(std::move(grant));
}

void MasterGrants::entitle(std::int64_t created_i, std::int64_t node, std::int64_t entitled_until_us,
                           std::int64_t tolerance_us) {
  for (Grant& grant : live_) {
    if (grant.created_i != created_i) continue;
    grant.kept_on.insert(node);
    grant.entitled_until_us = entitled_until_us;
    grant.tolerance_us = tolerance_us;
  }
}

void MasterGrants::released(std::int64_t owner, const std::string& token) {
  std::erase_if(live_, [&](const Grant& grant) { return grant.owner == owner && grant.token == token; });
}

}  // namespace lockcheck::properties
