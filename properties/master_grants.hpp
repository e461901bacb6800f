#pragma once
// Internal to mutual_exclusion_server: grants of a lock by two nodes that both act as its master at the same
// true time (MasterRoles' rivals). The per-node rules carry what an old master held to the promoted node at a
// failover; a grant the old master makes after that, while it goes on serving (a Sentinel split-brain), lives
// on a node no other grant is compared with. Here every grant is kept until its owner releases it (on any
// node: a carried or migrated copy) or its entitlement ends, with the rivals its node had when it was made;
// a grant by another node to another owner inside that entitlement is two masters at once when the two
// nodes were rivals at either grant.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "history.hpp"
#include "master_roles.hpp"

namespace lockcheck::properties {

class MasterGrants {
 public:
  struct Grant {
    std::int64_t node = 0;
    std::string key;
    std::int64_t owner = -1;
    std::string token;
    std::int64_t created_i = 0;  // the instance's identity: copies carried to a promoted node keep it
    std::int64_t t_us = 0;
    std::int64_t entitled_until_us = 0;
    std::int64_t tolerance_us = 0;
    std::map<std::int64_t, std::int64_t> rivals;  // its node's rivals when it was granted (MasterRoles::rivals)
    std::set<std::int64_t> kept_on;  // its node, and nodes that renewed a copy (carried by a failover)
    std::string role;                // MasterRoles::describe at the grant
  };
  struct Overlap {
    std::int64_t earlier_i = 0;  // the earlier grant's line
    std::vector<std::int64_t> witnesses;
    std::string cause;
  };

  explicit MasterGrants(const MasterRoles& roles) : roles_(roles) {}

  // A grant to `owner` at `event`: the first earlier grant by another node to another owner it overlaps
  // while the two nodes were rivals, if any. Call before add().
  std::optional<Overlap> overlapped(const ServerEvent& event, std::int64_t owner) const;
  void add(Grant grant);
  // The instance's entitlement moved (a renewal, a reentry) on `node`: its node, or a promoted node that
  // carried a copy and now keeps it alive there.
  void entitle(std::int64_t created_i, std::int64_t node, std::int64_t entitled_until_us, std::int64_t tolerance_us);
  // Its owner released it (a copy carried by a failover or moved by MIGRATE has a line of its own, so the
  // instance is known by owner and token): entitled nowhere any more.
  void released(std::int64_t owner, const std::string& token);

 private:
  const MasterRoles& roles_;
  std::vector<Grant> live_;
};

}  // namespace lockcheck::properties
