#pragma once
// Internal to mutual_exclusion_server: keys whose server events list their holders (`holders`: a read-write
// lock kept as one hash with a field per holder, rw-owned and rw-hash-timestamps). Such a key has several
// owners at once, so the one-instance-per-key model cannot see them; here each holder is its own instance.
// Two owners: a write holder next to any other holder of another process that is still entitled, or a new
// holder joining while a removed holder it conflicts with is still entitled (a ghost: its field deleted by
// another process, expired early, evicted, lost). Readers next to readers are fine.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "history.hpp"
#include "history_facts.hpp"

namespace lockcheck::properties {

// How far early a removal may come (in true time, against the entitlement) before it counts.
std::int64_t entitlement_tolerance_us(std::int64_t ttl_us);
std::string owner_name(std::int64_t owner);  // "process 3" / "an unknown process"

class HolderKeys {
 public:
  // Report a violation: witness line indices and a cause built only if it is the first.
  using Flag = std::function<void(std::vector<std::int64_t>, const std::function<std::string()>&)>;
  // The wording of a whole key's removal (deleted / expired / evicted / lost) for an instance described by
  // `who`, granted `ttl_us` at true time `set_t_us`.
  using RemovalWording = std::function<std::string(const ServerEvent&, const std::string& who,
                                                   std::int64_t set_t_us, std::int64_t ttl_us)>;

  HolderKeys(const History& history, const std::map<std::string, std::int64_t>& owners, const InFlight& in_flight,
             Flag flag, RemovalWording removal_wording);

  // True for an event that lists holders, and for any later event on a (node, key) that did.
  bool tracks(const ServerEvent& event) const;
  void on_server(const ServerEvent& event);
  // The promoted node is taken to hold what the old master's hash held (replicas record no events).
  void on_failover(const FaultEvent& fault);

 private:
  struct Held {
    std::string token;
    bool write = false;
    std::int64_t owner = -1;
    std::int64_t added_i = 0;
    std::int64_t set_t_us = 0;
    std::int64_t ttl_us = 0;
    std::int64_t entitled_until_us = kForever;
    std::int64_t failover_i = -1;
    std::string failover_cause;
  };
  struct Ghost {
    Held held;
    std::int64_t removed_i = 0;
    std::string cause;
    std::int64_t clock_node = -1;  // an early expiry: the node whose clock faults explain it
    std::int64_t clock_from_us = 0;
    std::int64_t clock_to_us = 0;
  };
  struct KeyHolders {
    std::vector<Held> holders;
    std::vector<Ghost> ghosts;
  };

  void remove(const Held& held, const ServerEvent& event, std::string cause, KeyHolders& state);
  void join(const Holder& holder, const ServerEvent& event, KeyHolders& state);
  void refresh(Held& held, const ServerEvent& event) const;
  void carry_failover_loss(const ServerEvent& event);
  std::string who(const Held& held) const;
  std::string full_cause(const Ghost& ghost) const;

  const History& history_;
  const std::map<std::string, std::int64_t>& owners_;
  const InFlight& in_flight_;
  Flag flag_;
  RemovalWording removal_wording_;
  std::map<std::pair<std::int64_t, std::string>, KeyHolders> states_;
  FailoverLosses losses_;
};

}  // namespace lockcheck::properties
