// mutual_exclusion_resource: the protected register accepted a write that was computed from a read older
// than another accepted write: that other update is lost (F4, F14, F25). With fencing the register rejects
// such a write (accepted=false), which is the lock working as designed (S11): never flagged.
// Staleness is computed here, not taken from the recorder's `stale` flag, so a history recorded elsewhere is
// judged by the same rule: a write is stale when the version it was computed from (`read_version`) is not the
// register's version when it lands (the version of the last accepted write, or what the reads showed).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <variant>
#include <vector>

#include "beliefs.hpp"
#include "checkers.hpp"
#include "semaphore_history.hpp"
#include "describe.hpp"

namespace lockcheck::properties {

Verdict check_mutual_exclusion_resource(const History& history) {
  if (history.meta.permits > 0) return judged_by_permit_safety("mutual_exclusion_resource", history);
  Verdict verdict;
  verdict.property = "mutual_exclusion_resource";
  std::map<std::int64_t, const ResourceEvent*> write_making_version;  // version -> accepted write that made it
  std::map<std::int64_t, const ResourceEvent*> last_read;             // process -> its latest read
  std::int64_t writes = 0;
  std::int64_t rejected = 0;
  std::int64_t lost = 0;
  std::optional<std::int64_t> register_version;  // unknown until a read or an accepted write shows it
  for (const Event& event : history.events) {
    const auto* resource = std::get_if<ResourceEvent>(&event);
    if (resource == nullptr) continue;
    if (resource->f == "read") {
      last_read[resource->process] = resource;
      if (resource->accepted) register_version = resource->version;
      continue;
    }
    ++writes;
    if (!resource->accepted) {
      ++rejected;
      continue;
    }
    // Without a read_version (or before anything showed the register) only the recorder can say.
    const bool stale = resource->read_version && register_version ? *resource->read_version != *register_version
                                                                  : resource->stale;
    register_version = resource->version;
    if (stale && lost++ == 0) {
      std::int64_t read_version = resource->read_version.value_or(-1);
      auto overwritten = write_making_version.find(read_version + 1);
      auto read = last_read.find(resource->process);
      if (read != last_read.end()) verdict.witnesses.push_back(read->second->i);
      if (overwritten != write_making_version.end()) verdict.witnesses.push_back(overwritten->second->i);
      verdict.witnesses.push_back(resource->i);
      std::string other = overwritten != write_making_version.end()
                              ? fmt::format("process {}'s write at t={} (version {})", overwritten->second->process,
                                            format_time_us(overwritten->second->t), read_version + 1)
                              : fmt::format("a write after version {}", read_version);
      verdict.cause = fmt::format(
          "the resource accepted process {}'s stale write at t={} (computed from version {}), so {} was lost{}",
          resource->process, format_time_us(resource->t), read_version, other,
          history.meta.fencing ? " although fencing was on" : "");
    }
    write_making_version[resource->version] = resource;
  }
  if (writes == 0) {
    verdict.outcome = Outcome::unknown;
    verdict.summary = "not exercised (no resource writes)";
  } else if (lost == 0) {
    verdict.outcome = Outcome::holds;
    verdict.summary = fmt::format("{} writes, no stale write accepted ({} rejected)", writes, rejected);
  } else {
    verdict.outcome = Outcome::violated;
    verdict.summary = fmt::format("{} stale write(s) accepted of {} writes (lost updates)", lost, writes);
    // One of the two writes was made by a holder after its own validity had ended (mutual_exclusion_client's
    // "acted" stretches): a late holder, whatever let its lease lapse; but only if the other witnessed
    // writer's hold began after that validity ended. One that began inside it overlapped a validity the lock
    // still promised (a key that lives less than the validity), which is not the late holder's doing.
    const std::vector<Belief> beliefs = belief_intervals(history);
    const auto witnessed = [&](std::int64_t i) {
      return std::find(verdict.witnesses.begin(), verdict.witnesses.end(), i) != verdict.witnesses.end();
    };
    const auto began_inside = [&](const Belief& late) {
      for (const std::int64_t i : verdict.witnesses) {
        const auto* write = std::get_if<ResourceEvent>(&history.events[static_cast<std::size_t>(i)]);
        if (write == nullptr || write->f != "write" || write->process == late.process) continue;
        for (const Belief& hold : beliefs) {
          if (hold.process == write->process && hold.start_us <= write->t && write->t <= hold.end_us &&
              hold.start_us < late.valid_until_us) {
            return true;
          }
        }
      }
      return false;
    };
    for (const Belief& belief : beliefs) {
      if (belief.end_reason != "acted" || !witnessed(belief.acted_i)) continue;
      if (!began_inside(belief)) verdict.tags.push_back(kPastOwnValidity);
      break;
    }
  }
  return verdict;
}

}  // namespace lockcheck::properties
