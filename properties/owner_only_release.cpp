// owner_only_release: a release or renew by one process removed or extended another process's lock
// instance (F2, F3, F18, F19, F23). Read from the server's facts: a `deleted` or `expire_set` caused by
// process B on a key whose current instance process A created or overwrote. A compare-and-delete or an
// owner-checked extend that returns 0 leaves no server event, so it is never flagged (S1, S10); expiry and
// eviction are the server's doing, not a release.
#include <fmt/format.h>

#include <map>

#include "checkers.hpp"
#include "describe.hpp"
#include "beliefs.hpp"
#include "history_facts.hpp"

namespace lockcheck::properties {

Verdict check_owner_only_release(const History& history) {
  Verdict verdict;
  verdict.property = "owner_only_release";
  std::set<std::string> keys = lock_keys(history);
  struct Owner {
    std::int64_t process = -1;
    std::string token;
    std::int64_t set_i = 0;
    bool shared = false;  // a readers' key: every reader may extend it, and the last one deletes it
  };
  std::map<std::pair<std::int64_t, std::string>, Owner> owners;  // (node, key) -> current instance
  // Readers' keys without per-holder fields (rw-two-keys' reader count): who joined it. One reader deleting
  // it while another still holds a read lease frees that reader's hold too (F18), which no exemption excuses.
  std::map<std::pair<std::int64_t, std::string>, std::set<std::int64_t>> readers;
  std::map<std::string, std::string> lock_of;  // server key -> the key client ops name
  for (const Meta::DerivedKey& derived : history.meta.lock_keys) lock_of[derived.key] = derived.lock;
  const OwnerLeases leases(history);
  InFlight in_flight;
  std::int64_t judged = 0;
  std::int64_t violations = 0;
  for (const Event& event : history.events) {
    if (const auto* op = std::get_if<Op>(&event)) in_flight.observe(*op);
    const auto* server = std::get_if<ServerEvent>(&event);
    if (server == nullptr || keys.count(server->key) == 0) continue;
    std::pair<std::int64_t, std::string> id{server->node, server->key};
    const bool reader_joins = server->by >= 0 && !server->holders && in_flight.reading(server->by) &&
                              server->event != ServerEventKind::deleted && server->event != ServerEventKind::expired;
    if (reader_joins) readers[id].insert(server->by);
    switch (server->event) {
      case ServerEventKind::created:
        readers[id] = {};
        if (reader_joins) readers[id].insert(server->by);
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
          const bool fellow_reader = it->second.shared && in_flight.reading(server->by);
          // A reader removing the readers' key while another reader's lease still runs removes that hold.
          std::int64_t still_reading = -1;
          if (removes && it->second.shared) {
            auto lock = lock_of.find(server->key);
            const std::string& op_key = lock != lock_of.end() ? lock->second : server->key;
            for (std::int64_t reader : readers[id]) {
              if (reader != server->by && leases.lease_end_us(reader, op_key, "", server->t) > server->t) {
                still_reading = reader;
                break;
              }
            }
          }
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
        if (removes) readers.erase(id);
        break;
      }
      case ServerEventKind::expired:
      case ServerEventKind::evicted:
      case ServerEventKind::lost:
        owners.erase(id);
        readers.erase(id);
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
