// Cluster faults: migration of the lock's slot while clients use it.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "core/world.hpp"
#include "lockcheck/key_slot.hpp"

namespace lockcheck::sim {
namespace {

constexpr std::int64_t kMigrateAfterUs = 1000;  // SETSLOT MIGRATING/IMPORTING, then MIGRATE 1 ms later

}  // namespace

void World::apply_slot_migration(const FaultSpec& fault) {
  if (!cluster_) throw std::invalid_argument("fault 'slot_migration' needs a [cluster]");
  const int slot = key_hash_slot(config_.workload.key);
  const int from = cluster_->owner_of(slot);
  const int to = fault.node;
  if (from == to || node(to).replica_of() >= 0 || !node(to).up() || !node(from).up()) return;
  record_fault("slot_migration", Json{{"node", to}, {"from", from}, {"slot", slot}, {"duration_us", fault.duration_us}});
  cluster_->begin_migration(slot, to);
  // The keys move at once, as redis-cli's MIGRATE loop does (clients asking the old owner for them then get
  // -ASK); at the end the slot is the target's (-MOVED).
  scheduler_.after(std::min<std::int64_t>(kMigrateAfterUs, fault.duration_us), [this, slot] {
    int source = -1, target = -1;
    if (!cluster_->move_keys(slot, source, target)) return;
    if (node(source).up()) replicate(node(source));
    if (node(target).up()) replicate(node(target));
  });
  scheduler_.after(fault.duration_us, [this, slot, to] {
    if (cluster_->finish_migration(slot)) record_fault("slot_migrated", Json{{"node", to}, {"slot", slot}});
  });
}

}  // namespace lockcheck::sim
