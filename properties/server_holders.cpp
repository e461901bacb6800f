// Each holder of a read-write hash lock is an instance of its own, entitled (as a whole key's instance is in
// mutual_exclusion_server.cpp) to the TTL the node granted at its last event: the key's deadline minus node
// time when the holder joined or its process last changed the key, counted in TRUE time from then, never
// shortened. A holder's field can outlive its own lease (rw-hash-timestamps keeps stale fields until
// someone's clock says they are stale), so a holder whose entitlement ran out no longer counts.
#include "server_holders.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "describe.hpp"

namespace lockcheck::properties {

std::int64_t entitlement_tolerance_us(std::int64_t ttl_us) { return std::max<std::int64_t>(2'000, ttl_us / 100); }

std::string owner_name(std::int64_t owner) {
  return owner >= 0 ? fmt::format("process {}", owner) : std::string("an unknown process");
}

namespace {

const char* role(bool write) { return write ? "write hold" : "read hold"; }

bool removes_key(ServerEventKind kind) {
  return kind == ServerEventKind::deleted || kind == ServerEventKind::expired || kind == ServerEventKind::evicted ||
         kind == ServerEventKind::lost;
}

bool listed(const std::vector<Holder>& holders, const std::string& token, bool write) {
  return std::any_of(holders.begin(), holders.end(),
                     [&](const Holder& holder) { return holder.token == token && holder.write == write; });
}

}  // namespace

HolderKeys::HolderKeys(const History& history, const std::map<std::string, std::int64_t>& owners,
                       const InFlight& in_flight, Flag flag, RemovalWording removal_wording)
    : history_(history),
      owners_(owners),
      in_flight_(in_flight),
      flag_(std::move(flag)),
      removal_wording_(std::move(removal_wording)) {}

bool HolderKeys::tracks(const ServerEvent& event) const {
  return event.holders.has_value() || states_.count({event.node, event.key}) != 0;
}

std::string HolderKeys::who(const Held& held) const {
  return fmt::format("{}'s {} (token {})", owner_name(held.owner), role(held.write), short_token(held.token));
}

void HolderKeys::on_server(const ServerEvent& event) {
  if (event.event == ServerEventKind::lost) carry_failover_loss(event);
  KeyHolders& state = states_[{event.node, event.key}];
  std::erase_if(state.ghosts, [&](const Ghost& ghost) {
    const std::int64_t until = ghost.held.entitled_until_us;
    return until != kForever && event.t >= until - entitlement_tolerance_us(ghost.held.ttl_us);
  });
  if (removes_key(event.event)) {
    std::vector<Held> gone = std::move(state.holders);
    state.holders.clear();
    for (const Held& held : gone) {
      remove(held, event, removal_wording_(event, who(held), held.set_t_us, held.ttl_us), state);
    }
    return;
  }
  if (!event.holders) {  // the hash was not read after this event (real Redis): only deadlines move
    for (Held& held : state.holders) {
      if (event.by >= 0 && held.owner == event.by) refresh(held, event);
    }
    return;
  }
  std::vector<Held> kept, gone;
  for (Held& held : state.holders) (listed(*event.holders, held.token, held.write) ? kept : gone).push_back(held);
  state.holders = std::move(kept);
  for (const Held& held : gone) {
    std::string cause;
    if (event.event == ServerEventKind::created) {
      // The key was absent before this event, so every holder on record vanished without an event of its
      // own (a failover to a replica that never had it).
      cause = held.failover_i >= 0
                  ? held.failover_cause
                  : fmt::format("{} vanished from node {} without a recorded event", who(held), event.node);
    } else {
      cause = fmt::format("{} was removed from the hash on node {} by {} at t={}", who(held), event.node,
                          event.by >= 0 ? in_flight_.describe(event.by, event.command, event.script)
                                        : std::string("an unknown process"),
                          format_time_us(event.t));
    }
    remove(held, event, std::move(cause), state);
  }
  for (Held& held : state.holders) {
    if (event.by >= 0 && held.owner == event.by) refresh(held, event);
  }
  for (const Holder& holder : *event.holders) {
    const bool known = std::any_of(state.holders.begin(), state.holders.end(), [&](const Held& held) {
      return held.token == holder.token && held.write == holder.write;
    });
    if (!known) join(holder, event, state);
  }
}

void HolderKeys::refresh(Held& held, const ServerEvent& event) const {
  if (event.expire_at_ms < 0) {
    held.entitled_until_us = kForever;
    return;
  }
  const std::int64_t ttl_us = (event.expire_at_ms - event.node_time_ms) * 1'000;
  const std::int64_t until = event.t + ttl_us;
  if (held.entitled_until_us != kForever && until < held.entitled_until_us) return;  // never shortened (F17)
  held.set_t_us = event.t;
  held.ttl_us = ttl_us;
  held.entitled_until_us = until;
}

void HolderKeys::remove(const Held& held, const ServerEvent& event, std::string cause, KeyHolders& state) {
  if (event.replicated) return;
  const bool foreign_kind = event.event == ServerEventKind::expired || event.event == ServerEventKind::evicted ||
                            event.event == ServerEventKind::lost;
  // A create found the key absent: only the holder's own process can have ended its hold that way.
  const bool by_owner = !foreign_kind && event.by >= 0 &&
                        (held.owner == event.by || (held.owner < 0 && event.event != ServerEventKind::created));
  if (by_owner) return;  // a release: the hold ends as intended
  if (held.entitled_until_us != kForever &&
      event.t >= held.entitled_until_us - entitlement_tolerance_us(held.ttl_us)) {
    return;  // gone on time (its lease was over)
  }
  Ghost ghost{held, event.i, std::move(cause), -1, 0, 0};
  if (event.event == ServerEventKind::expired) {
    ghost.clock_node = event.node;
    ghost.clock_from_us = held.set_t_us;
    ghost.clock_to_us = event.t;
  }
  state.ghosts.push_back(std::move(ghost));
}

void HolderKeys::join(const Holder& holder, const ServerEvent& event, KeyHolders& state) {
  Held joined;
  joined.token = holder.token;
  joined.write = holder.write;
  const auto owner = owners_.find(holder.token);
  joined.owner = owner != owners_.end() ? owner->second : event.by;
  joined.added_i = event.i;
  refresh(joined, event);
  const auto same_owner = [&](const Held& other) {
    if (other.owner >= 0 && joined.owner >= 0) return other.owner == joined.owner;
    return other.token == joined.token;
  };
  // Replicated writes follow a master's decision that the master's own events already judged.
  if (!event.replicated) {
    for (const Ghost& ghost : state.ghosts) {
      if (!(ghost.held.write || joined.write) || same_owner(ghost.held)) continue;
      const std::int64_t until = ghost.held.entitled_until_us;
      flag_({ghost.held.added_i, ghost.removed_i, event.i}, [&] {
        std::string took = fmt::format("{}; then {} joined the key for {} on node {} at t=", full_cause(ghost),
                                       owner_name(joined.owner), joined.write ? "writing" : "reading", event.node);
        if (until == kForever) return fmt::format("{}{} (the hold had no expiry)", took, format_time_us(event.t));
        return fmt::format("{}{}, {} before {}'s TTL ran out in true time (t={})", took, format_time_us(event.t),
                           format_duration_us(until - event.t), owner_name(ghost.held.owner), format_time_us(until));
      });
      state.holders.push_back(joined);
      return;
    }
    for (const Held& other : state.holders) {
      if (!(other.write || joined.write) || same_owner(other)) continue;
      const std::int64_t until = other.entitled_until_us;
      if (until != kForever && event.t >= until - entitlement_tolerance_us(other.ttl_us)) continue;
      flag_({other.added_i, event.i}, [&] {
        return fmt::format("{} joined the hash of key {} on node {} at t={} ({}) next to {}: two owners at once",
                           who(joined), event.key, event.node, format_time_us(event.t),
                           event.by >= 0 ? in_flight_.describe(event.by, event.command, event.script)
                                         : std::string("an unknown process"),
                           who(other));
      });
      break;
    }
  }
  state.holders.push_back(joined);
}

void HolderKeys::on_failover(const FaultEvent& fault) {
  losses_.on_failover(fault);
  for (const auto& [node_key, state] : states_) {
    if (node_key.first != fault.from) continue;
    KeyHolders& promoted = states_[{fault.node, node_key.second}];
    promoted.ghosts.clear();
    promoted.holders = state.holders;
    for (Held& held : promoted.holders) {
      held.failover_i = fault.i;
      held.failover_cause = fmt::format("lost in failover: node {} was promoted at t={} without {} that old master "
                                        "node {} held",
                                        fault.node, format_time_us(fault.t), who(held), fault.from);
    }
  }
}

// The simulator reports what the promoted node lacked as `lost` on the old master, at the failover's time.
void HolderKeys::carry_failover_loss(const ServerEvent& event) {
  const std::optional<std::int64_t> promoted_node = losses_.promoted_for(event);
  if (!promoted_node) return;
  const auto promoted_it = states_.find({*promoted_node, event.key});
  if (promoted_it == states_.end()) return;
  KeyHolders& promoted = promoted_it->second;
  std::vector<Held> gone = std::move(promoted.holders);
  promoted.holders.clear();
  for (const Held& held : gone) promoted.ghosts.push_back(Ghost{held, event.i, held.failover_cause, -1, 0, 0});
}

std::string HolderKeys::full_cause(const Ghost& ghost) const {
  if (ghost.clock_node < 0) return ghost.cause;
  std::string clock = node_clock_faults(history_, ghost.clock_node, ghost.clock_from_us, ghost.clock_to_us);
  return clock.empty() ? ghost.cause : ghost.cause + "; " + clock;
}

}  // namespace lockcheck::properties
