// owner_only_release: a release or renew by one process removed or extended another process's lock
// instance (F2, F3, F18, F19, F23). Read from the server's facts: a `deleted` or `expire_set` caused by
// process B on a key whose current instance process A created or overwrote. A compare-and-delete or an
// owner-checked extend that returns 0 leaves no server event, so it is never flagged (S1, S10); expiry and
// eviction are the server's doing, not a release.
#include <fmt/format.h>

#include <algorithm>

#include <map>

#include "checkers.hpp"
#include "lockcheck/assert.hpp"
#include "semaphore_history.hpp"
#include "describe.hpp"
#include "history_facts.hpp"
#include "shared_key_readers.hpp"

namespace lockcheck::properties {
namespace {

struct Owner {
  std::int64_t process = -1;
  std::string token;
  std::int64_t set_i = 0;
  bool shared = false;  // a readers' key: every reader may extend it, and the last one deletes it
};
using Owners = std::map<std::pair<std::int64_t, std::string>, Owner>;  // (node, key) -> current instance

}  // namespace

Verdict check_owner_only_release(const History& history) {
  if (history.meta.permits > 0) return judged_by_permit_safety("owner_only_release", history);
  Verdict verdict;
  verdict.property = "owner_only_release";
  std::set<std::string> keys = lock_keys(history);
  Owners owners;
  NodeRoles<Owner> roles;
  // One reader deleting a readers' key while another still holds a read lease frees that reader's hold too
  // (F18), which the readers' exemption does not excuse.
  SharedKeyReaders readers(history);
  InFlight in_flight;
  const std::map<std::string, std::int64_t> token_owner = token_owners(history);
  // A command that lists its own process among a shared key's holders put that process's hold there: it is a
  // reader of the key (a late duplicate of its acquire re-lists a released token), and a reader may extend it.
  // So is one whose command added a holder the key did not list before: the token it put there is its own, though
  // no ok line may name it (a duplicated attempt of an acquire that never returned).
  std::map<std::pair<std::int64_t, std::string>, std::vector<Holder>> listed;  // (node, key) -> its last holders
  std::map<std::int64_t, std::int64_t> joined_at;                            // process -> when its command added one
  const auto lists_itself = [&](const ServerEvent& server) {
    if (const auto joined = joined_at.find(server.by); joined != joined_at.end() && joined->second == server.t) return true;
    return server.holders && std::any_of(server.holders->begin(), server.holders->end(), [&](const Holder& holder) {
             const auto owner = token_owner.find(holder.token);
             return owner != token_owner.end() && owner->second == server.by;
           });
  };
  const auto note_holders = [&](const ServerEvent& server) {
    if (!server.holders || server.replicated) return;
    std::vector<Holder>& before = listed[{server.node, server.key}];
    const bool added = std::any_of(server.holders->begin(), server.holders->end(), [&](const Holder& holder) {
      return std::none_of(before.begin(), before.end(), [&](const Holder& was) { return was.token == holder.token; });
    });
    if (added && server.by >= 0) joined_at[server.by] = server.t;
    before = *server.holders;
  };
  std::int64_t judged = 0;
  std::int64_t violations = 0;
  for (const Event& event : history.events) {
    if (const auto* op = std::get_if<Op>(&event)) in_flight.observe(*op);
    if (const auto* fault = std::get_if<FaultEvent>(&event)) roles.on_fault(*fault, owners);
    const auto* server = std::get_if<ServerEvent>(&event);
    if (server == nullptr || keys.count(server->key) == 0) continue;
    std::pair<std::int64_t, std::string> id{server->node, server->key};
    note_holders(*server);
    const bool reader_joins = server->by >= 0 && !server->holders && in_flight.reading(server->by);
    const std::vector<SharedKeyReaders::Reader> others_reading = readers.others_still_reading(*server);
    readers.observe(*server, in_flight);
    switch (server->event) {
      case ServerEventKind::created:
        owners[id] = Owner{server->by, server->value, server->i, in_flight.reading(server->by)};
        break;
      case ServerEventKind::overwritten:
        if (auto it = owners.find(id); it != owners.end() && it->second.shared && reader_joins) break;  // joined
        owners[id] = Owner{server->by, server->value, server->i, in_flight.reading(server->by)};
        break;
      case ServerEventKind::deleted:
      case ServerEventKind::expire_set: {
        auto it = owners.find(id);
        bool removes = server->event == ServerEventKind::deleted;
        if (it != owners.end() && !server->replicated && server->by >= 0 && it->second.process >= 0) {
          ++judged;
          const bool fellow_reader = it->second.shared && (in_flight.reading(server->by) || lists_itself(*server));
          // A reader removing the readers' key while another reader's lease still runs removes that hold.
          std::int64_t still_reading = -1;
          if (removes && it->second.shared && !others_reading.empty()) still_reading = others_reading.front().process;
          if (still_reading >= 0 && violations++ == 0) {
            verdict.witnesses = {it->second.set_i, server->i};
            verdict.cause = fmt::format(
                "{} deleted the readers' key '{}' on node {} at t={} while process {} still held a read lock on it: "
                "one reader's release freed every reader",
                in_flight.describe(server->by, server->command, server->script, "release"), server->key,
                server->node, format_time_us(server->t), still_reading);
          } else if (it->second.process != server->by && !fellow_reader && violations++ == 0) {
            verdict.witnesses = {it->second.set_i, server->i};
            verdict.cause = fmt::format(
                "{} {} process {}'s lock instance (token {}) of '{}' on node {} at t={}",
                in_flight.describe(server->by, server->command, server->script, removes ? "release" : "renew"), removes ? "deleted" : "extended",
                it->second.process, short_token(it->second.token), server->key, server->node,
                format_time_us(server->t));
          }
        }
        if (removes && it != owners.end()) owners.erase(it);
        break;
      }
      case ServerEventKind::expired:
      case ServerEventKind::evicted: owners.erase(id); break;
      case ServerEventKind::lost:
        roles.on_lost(*server, owners);
        owners.erase(id);
        break;
      case ServerEventKind::modified:
      case ServerEventKind::expire_removed: break;
    }
  }
  conclude(verdict, violations, judged,
           fmt::format("{} release(s) or renewal(s) took effect on another process's lock", violations),
           "not exercised (no release or renewal reached a held lock)",
           fmt::format("{} deletes or deadline changes, each by the instance's owner", judged));
  return verdict;
}

}  // namespace lockcheck::properties
