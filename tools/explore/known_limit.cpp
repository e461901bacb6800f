#include "known_limit.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/simulate.hpp"
#include "properties/checkers.hpp"
#include "properties/history.hpp"
#include "properties/verdict.hpp"

namespace lockcheck::explore {
namespace {

using sim::FaultKind;
using sim::FaultSpec;

// The fault's theory limit when it is of `family` (the kind's row, sim/model/fault.cpp, says which), named by
// the kind `--without` leaves out: a node restart's, its node crash.
std::optional<KnownLimit> limit_of(const FaultSpec& fault, sim::LimitFamily family) {
  const std::optional<sim::TheoryLimit> limit = sim::theory_limit_of(fault);
  if (!limit || limit->family != family) return std::nullopt;
  // A follow-up is left out with the one fault it ends (a node restart with its node crash).
  const std::vector<FaultKind> ended = sim::kinds_ended_by(fault.kind);
  const FaultKind named = ended.size() == 1 ? ended.front() : fault.kind;
  return KnownLimit{std::string(limit->because), std::string(sim::to_string(named)), std::string(limit->cases)};
}

std::optional<KnownLimit> replication_loss(const FaultSpec& fault) { return limit_of(fault, sim::LimitFamily::replication_loss); }
std::optional<KnownLimit> early_expiry(const FaultSpec& fault) { return limit_of(fault, sim::LimitFamily::early_expiry); }
std::optional<KnownLimit> late_expiry(const FaultSpec& fault) { return limit_of(fault, sim::LimitFamily::late_expiry); }
std::optional<KnownLimit> late_holder(const FaultSpec& fault) { return limit_of(fault, sim::LimitFamily::late_holder); }

}  // namespace

std::optional<KnownLimit> known_limit(std::string_view property, const std::vector<FaultSpec>& faults,
                                      sim::Fencing fencing, const std::vector<std::string>& tags) {
  const bool server = property == "mutual_exclusion_server";
  const bool client = property == "mutual_exclusion_client";
  const bool resource = property == "mutual_exclusion_resource";
  // A semaphore's permit_safety: too many holders at once is its client level, a permit back late its
  // bounded unavailability (properties/permit_safety.cpp).
  const bool permits = property == "permit_safety";
  const bool fenced_resource = fencing != sim::Fencing::off;
  for (const FaultSpec& fault : faults) {
    std::optional<KnownLimit> limit;
    if (server || client || permits || (resource && !fenced_resource)) {
      limit = replication_loss(fault);
      if (!limit) limit = early_expiry(fault);
    }
    if (!limit && (client || permits || (resource && !fenced_resource))) limit = late_holder(fault);
    if (!limit && (property == "fencing" || (resource && fenced_resource))) {
      limit = replication_loss(fault);
      if (limit) {
        limit->because += "; a fencing counter on one asynchronously replicated master can repeat (F25)";
        limit->cases = "F25";
      }
    }
    if (!limit && resource && fencing == sim::Fencing::writes) {
      // Two holders overlapping (as every lock's do under these faults) lose an update through write-only
      // fencing when the stale write lands between the newer holder's read and its write (README, "Fencing").
      limit = early_expiry(fault);
      if (!limit) limit = late_holder(fault);
      if (limit) {
        limit->because += "; fencing writes only, the stale write landed between the newer holder's read and its "
                          "write (fence reads too: fencing = \"reads-and-writes\")";
      }
    }
    if (!limit && (property == "bounded_unavailability" || permits)) limit = late_expiry(fault);
    if (!limit && property == "latch") {
      // A latch's state is data like a lock's key: what loses an acknowledged write loses its count_downs.
      limit = replication_loss(fault);
      if (limit) limit->because += "; the latch's recorded count_downs went with it, and its counters had returned";
    }
    if (!limit && property == "reentrancy") {
      limit = replication_loss(fault);
      if (limit) limit->because += "; the promoted node lacked the latest hold count";
    }
    if (limit) return limit;
  }
  const bool late_holder_tag = std::find(tags.begin(), tags.end(), properties::kPastOwnValidity) != tags.end();
  if (late_holder_tag && (client || permits || (resource && fencing != sim::Fencing::reads_and_writes))) {
    return KnownLimit{"the holder used the resource after its own validity had ended (its lease lapsed: lost "
                      "renewals, a slow acquire, a pause; it did not check): no lock prevents that without fencing "
                      "(F4, F21)",
                      "", "F4, F21"};
  }
  return std::nullopt;
}

std::optional<KnownLimit> known_limit_of_run(std::string_view property, const sim::RunConfig& config, std::uint64_t seed,
                                             sim::Fencing fencing, const std::vector<std::string>& tags) {
  std::vector<sim::FaultSpec> faults = config.faults;
  if (const auto scheduled = known_limit(property, faults, fencing, tags)) return scheduled;
  if (config.cluster.shards == 0 && config.sentinel.sentinels == 0) return std::nullopt;
  const properties::History history = properties::parse_history(sim::simulate(config, seed).history);
  for (const properties::Event& event : history.events) {
    const auto* fault = std::get_if<properties::FaultEvent>(&event);
    if (fault == nullptr || !fault->is(sim::FaultKind::failover)) continue;
    const bool scheduled = std::any_of(config.faults.begin(), config.faults.end(), [&](const sim::FaultSpec& spec) {
      return spec.kind == sim::FaultKind::failover && spec.at_us == fault->t;
    });
    if (!scheduled) faults.push_back(sim::FaultSpec{.at_us = fault->t, .kind = sim::FaultKind::failover, .node = static_cast<int>(fault->node)});
  }
  std::optional<KnownLimit> limit = known_limit(property, faults, fencing, tags);
  if (limit && limit->fault == sim::to_string(sim::FaultKind::failover)) {
    limit->because += fmt::format(", the {}'s own after a node_crash", config.cluster.shards > 0 ? "cluster" : "sentinels");
    limit->fault = std::string(sim::to_string(sim::FaultKind::node_crash));
  }
  return limit;
}

std::optional<std::string> shown_by_the_run(std::string_view property, const properties::Verdict& verdict,
                                            const sim::RunConfig& config, std::uint64_t seed, sim::Fencing fencing) {
  if (property == "mutual_exclusion_server") {
    if (properties::taken_by_a_fault(verdict)) return verdict.cause;
    return std::nullopt;
  }
  if (property == "bounded_unavailability" && properties::has_tag(verdict, properties::kLateOnNodeClock)) {
    return "a node's clock was set back or ran slow by more than the lock came back late";
  }
  constexpr const char* kClockSlow = "the first holder's clock ran slower than the lock's drift margin by more than the overlap";
  if (property == "mutual_exclusion_client" && properties::has_tag(verdict, properties::kHolderClockSlow)) return kClockSlow;
  constexpr const char* kLostInstance = "a node lost the first holder's instance (a failover or a restart) before the other acquired";
  if (property == "mutual_exclusion_client" && properties::taken_by_a_fault(verdict)) return kLostInstance;
  const bool client_level = property == "mutual_exclusion_client" ||
                            (property == "mutual_exclusion_resource" && fencing == sim::Fencing::off);
  if (!client_level) return std::nullopt;
  const properties::History history = properties::parse_history(sim::simulate(config, seed).history);
  const properties::Verdict server = properties::check_mutual_exclusion_server(history);
  if (server.outcome == properties::Outcome::violated && properties::taken_by_a_fault(server)) {
    return "on the nodes, " + server.cause;
  }
  if (property == "mutual_exclusion_resource") {
    // The lost update of an unfenced resource is the client-level overlap's: what explains that explains it.
    const properties::Verdict client = properties::check_mutual_exclusion_client(history);
    if (client.outcome == properties::Outcome::violated && properties::taken_by_a_fault(client)) return kLostInstance;
    if (client.outcome == properties::Outcome::violated && properties::has_tag(client, properties::kHolderClockSlow)) {
      return kClockSlow;
    }
  }
  return std::nullopt;
}

}  // namespace lockcheck::explore
