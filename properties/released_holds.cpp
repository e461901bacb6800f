#include "released_holds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "describe.hpp"
#include "history_facts.hpp"
#include "master_roles.hpp"

namespace lockcheck::properties {
namespace {

using ProcessKey = std::pair<std::int64_t, std::string>;
using NodeKey = std::pair<std::int64_t, std::string>;

bool frees(ServerEventKind kind) {
  return kind == ServerEventKind::deleted || kind == ServerEventKind::expired || kind == ServerEventKind::evicted ||
         kind == ServerEventKind::lost;
}

// A process's outermost release that reported the lock released: watched until the key shows it freed.
struct Watch {
  const Op* release_ok = nullptr;
  std::string token;
  // The nodes the release's commands ran on: for a one-master lock, a copy elsewhere (a deposed master that came
  // back with data from before the release, F5) never saw it, and counts nothing the process answers for.
  std::set<std::int64_t> nodes;
};

// Whether the lock counts holds: a hash whose field a script increments (HINCRBY), as Redisson's and the
// catalogue's reentrant locks do. A string lock (SET NX) counts none.
bool counts_holds(const History& history) {
  for (const Event& event : history.events) {
    const auto* server = std::get_if<ServerEvent>(&event);
    if (server == nullptr) continue;
    if (upper_command(server->command) == "HINCRBY") return true;
  }
  return false;
}

}  // namespace

std::vector<ReleasedHoldLeft> released_holds_left(const History& history) {
  const std::set<std::string> keys = lock_keys(history);
  std::map<ProcessKey, std::int64_t> depth;
  std::map<ProcessKey, std::string> release_token;  // an outermost release in flight: the token it released
  std::map<ProcessKey, std::set<std::int64_t>> release_nodes;  // ... and the nodes its commands ran on
  std::set<ProcessKey> maybe_counted;  // an acquire or release of unknown outcome since the key was last freed
  struct Written {
    std::int64_t node;  // the node the process's commands last changed the key on
    std::int64_t t;     // ... and when
  };
  std::map<ProcessKey, Written> written_on;
  std::map<std::int64_t, std::int64_t> replica_cut_at;      // replica node -> since when its link was cut
  struct Healed {
    std::int64_t cut_at;  // when its link was cut
    std::int64_t at;      // ... and mended
  };
  std::map<std::int64_t, Healed> replica_healed;  // replica node -> its last cut link, mended
  std::map<std::int64_t, std::int64_t> replica_crashed_at;  // replica node -> since when it lacks writes (a crash)
  std::map<std::int64_t, std::int64_t> last_crash_at;  // node -> its latest crash (an AOF restart's copy predates it)
  AofRestarts aof_restarts;
  std::map<NodeKey, std::int64_t> freed_at;  // (node, key) -> when the key was last freed there
  std::map<ProcessKey, Watch> watches;
  std::map<NodeKey, KeyOwner> named;
  MasterRoles roles;
  std::vector<ReleasedHoldLeft> found;
  // A process whose count sits on no node we saw change the key (a hold from a reply alone): in doubt.
  const auto doubt_counts_written_nowhere = [&] {
    for (const auto& [id, holds] : depth) {
      if (written_on.count(id) == 0) maybe_counted.insert(id);
    }
  };
  const auto report = [&](const ProcessKey& id, const ServerEvent& server, const std::string& what) {
    const Watch& watch = watches.at(id);
    found.push_back({{watch.release_ok->i, server.i},
                     fmt::format("process {}'s last release of '{}' at t={} reported it released, but node {} still "
                                 "counted a hold of its: {} (more holds counted than the process acquired)",
                                 id.first, id.second, format_time_us(watch.release_ok->t), server.node, what)});
    watches.erase(id);
  };
  // A lock that counts no holds cannot count too many: a string lock's copy left on some node is the
  // server-level checkers' to judge (the defaults bench met it as a false own bug on correct user scripts).
  if (!counts_holds(history)) return {};
  for (const Event& event : history.events) {
    if (const auto* op = std::get_if<Op>(&event)) {
      const ProcessKey id{op->process, op->key};
      if (op->fn == OpFn::acquire && op->type == OpType::ok) ++depth[id];
      // An acquire of unknown outcome may have counted a hold; a release of unknown outcome may not have taken
      // its hold away (its node was down): what the key counts next is not the process's to answer for.
      if ((op->fn == OpFn::acquire || op->fn == OpFn::release) && op->type == OpType::info) maybe_counted.insert(id);
      if (op->fn == OpFn::release && op->type == OpType::invoke && depth[id] > 0 && --depth[id] == 0) {
        release_token[id] = op->token;
      }
      if (op->fn == OpFn::release && op->type != OpType::invoke) {
        const auto outermost = release_token.find(id);
        if (outermost != release_token.end() && op->type == OpType::ok && op->result == "released" &&
            maybe_counted.count(id) == 0 && depth[id] == 0) {
          watches[id] = Watch{op, outermost->second, release_nodes[id]};
        }
        if (outermost != release_token.end()) release_token.erase(outermost);
        release_nodes.erase(id);
      }
      continue;
    }
    if (const auto* fault = std::get_if<FaultEvent>(&event)) {
      roles.on_fault(*fault);
      // Back from an AOF written every second: a release up to a second before the crash may be undone, an old
      // hold counted again with no line saying so (F10). Every count on that node is in doubt until a freeing.
      if (aof_restarts.on_fault(*fault)) {
        // Every process that wrote there, not only those that had counted a hold: an acquire still in flight may
        // have made the older copy (the gate at 1000 runs, seed 665).
        for (const auto& [id, written] : written_on) {
          if (written.node == fault->node) maybe_counted.insert(id);
        }
        doubt_counts_written_nowhere();
        std::erase_if(watches, [&](const auto& entry) { return entry.second.nodes.count(fault->node) > 0; });
        // A replica's copy is as old as its last fsync: what its master's stream brought it in that time before
        // its crash may be undone too (the gate at 1000 runs, seed 1165: a release it had got, then promoted).
        // Two seconds before this restart's own crash, not before the copy an earlier restart brought back.
        const auto crashed = replica_crashed_at.find(fault->node);
        const auto last_crash = last_crash_at.find(fault->node);
        if (crashed != replica_crashed_at.end() && last_crash != last_crash_at.end()) {
          crashed->second = std::min(crashed->second, last_crash->second - AofRestarts::kCopyAgeUs);
        }
      }
      // A replica out of sync: its link cut, until a heal; or the node down, until its own promotion (once back
      // it is behind until its master's next write reaches it, which no line says, and a heal mends links, not
      // data: the gate at 1000 runs, seed 479, where the master was down from before the replica came back).
      if (fault->is(sim::FaultKind::replica_partition)) replica_cut_at.try_emplace(fault->node, fault->t);
      // A replica that crashes while its link is cut (or mended less than the lag before) has its copy of that
      // cut's time, and a heal while it is down brings it nothing (the gate at 1000 runs, seed 415).
      if (fault->is(sim::FaultKind::node_crash)) {
        last_crash_at[fault->node] = fault->t;
        std::int64_t lacks_writes_since = fault->t;
        if (const auto cut = replica_cut_at.find(fault->node); cut != replica_cut_at.end()) {
          lacks_writes_since = std::min(lacks_writes_since, cut->second);
        }
        const std::int64_t lag_us = std::max<std::int64_t>(history.meta.replication_lag_max_us, 0);
        if (const auto healed = replica_healed.find(fault->node);
            healed != replica_healed.end() && healed->second.at + lag_us >= fault->t) {
          lacks_writes_since = std::min(lacks_writes_since, healed->second.cut_at);
        }
        replica_crashed_at.try_emplace(fault->node, lacks_writes_since);
      }
      if (fault->is(sim::FaultKind::heal)) {
        for (const auto& [node, cut_at] : replica_cut_at) replica_healed[node] = Healed{cut_at, fault->t};
        replica_cut_at.clear();
      }
      // A failover moves the counts kept on the old master to the promoted replica: that is where a freeing
      // clears doubt about them from now on (the old master dropping its copy, or losing it at a restart, clears
      // nothing: the gate at 1000 runs, seed 323). And the replica may lack the old master's latest writes (F5):
      // a release it never got leaves a hold it counts and no line says so (seed 301). The count of a process
      // that wrote it on the old master within the replication lag before (or since the replica's link was cut or
      // it crashed) is in doubt until such a freeing. With the lag unknown (a real deployment), any write may be lost.
      if (fault->is(sim::FaultKind::failover)) {
        std::int64_t in_sync_until_us = fault->t;
        for (const auto* out_of_sync : {&replica_cut_at, &replica_crashed_at}) {
          if (const auto since = out_of_sync->find(fault->node); since != out_of_sync->end()) {
            in_sync_until_us = std::min(in_sync_until_us, since->second);
          }
        }
        const std::int64_t lag_us = history.meta.replication_lag_max_us;
        // A link mended less than the lag before has not caught up yet: the gate at 1000 runs, seed 863, had the
        // heal and the failover at one instant.
        if (const auto healed = replica_healed.find(fault->node);
            healed != replica_healed.end() && healed->second.at + std::max<std::int64_t>(lag_us, 0) >= fault->t) {
          in_sync_until_us = std::min(in_sync_until_us, healed->second.cut_at);
        }
        // A freeing of the key there (its expiry, a DEL) is such a write too: a copy the replica kept of a hold the
        // master had dropped is counted again (the gate at 1000 runs, seed 671).
        const auto replicated_by_then = [&](std::int64_t t) { return lag_us >= 0 && t < in_sync_until_us - lag_us; };
        for (auto& [id, written] : written_on) {
          if (written.node != fault->from) continue;
          written.node = fault->node;
          const auto freed = freed_at.find({fault->from, id.second});
          const bool freeing_replicated = freed == freed_at.end() || replicated_by_then(freed->second);
          if (replicated_by_then(written.t) && freeing_replicated) continue;
          maybe_counted.insert(id);
        }
        doubt_counts_written_nowhere();
        replica_cut_at.erase(fault->node);  // a master now: what it has is what it serves
        replica_healed.erase(fault->node);
        replica_crashed_at.erase(fault->node);
      }
      if (fault->is(sim::FaultKind::crash)) {
        for (auto& [id, holds] : depth) {
          if (id.first == fault->process) holds = 0;
        }
      }
      continue;
    }
    const auto* server = std::get_if<ServerEvent>(&event);
    if (server == nullptr || server->replicated || keys.count(server->key) == 0) continue;
    if (release_token.count({server->by, server->key}) > 0) release_nodes[{server->by, server->key}].insert(server->node);
    if (server->by >= 0) written_on[{server->by, server->key}] = Written{server->node, server->t};
    KeyOwner& copy = named[{server->node, server->key}];
    // What the copy named before this line: a hold left behind shows in what happens to it next.
    for (auto it = watches.begin(); it != watches.end();) {
      const ProcessKey id = it->first;  // copies: report() erases the entry
      const Watch watch = it->second;
      ++it;
      if (id.second != server->key || !copy.names(watch.token)) continue;
      // A line that ran before the release's reply came back is the release's own (a real node's notification
      // is read late).
      if (server->ran_from_us() <= watch.release_ok->t) continue;
      // A node that is one of two masters of the data (a failed-over master restarted, a split-brain's old
      // master): the release reached one of them, and the other's copy is F5's, not a count gone wrong.
      if (!roles.rivals(server->node).empty()) continue;
      // One master's lock: a copy on a node the release never ran on is a deposed master's. A lock over several
      // masters (meta quorum) holds on each of them, and its release must reach them all.
      if (history.meta.quorum <= 0 && !watch.nodes.empty() && watch.nodes.count(server->node) == 0) continue;
      if (server->event == ServerEventKind::expired) {
        report(id, *server, fmt::format("the key expired at t={} still naming it", format_time_us(server->t)));
      } else if (server->event == ServerEventKind::modified && server->by == id.first) {
        report(id, *server, fmt::format("its next acquire at t={} re-entered that hold instead of creating the key",
                                        format_time_us(server->t)));
      }
    }
    copy.apply(*server);
    if (frees(server->event)) freed_at[{server->node, server->key}] = server->t;
    // The key gone, or made afresh: whatever was counted before is no longer anyone's hold. (An acquire of
    // unknown outcome may be what makes it afresh, its request late: only a freeing clears that doubt.)
    if (frees(server->event) || server->event == ServerEventKind::created) {
      std::erase_if(watches, [&](const auto& entry) { return entry.first.second == server->key; });
    }
    // What an AOF restart reports lost is the copy at the crash; the older one it came back with may count anything.
    const bool lost_at_aof_restart = aof_restarts.lost_at_a_restart(*server);
    // Data a master loses at its restart is lost there only: a replica keeps its copy, which a failover may promote
    // (the gate at 1000 runs, seed 301, once redisson-like gave old requests back). With more than one node, such
    // a loss clears no doubt; a DEL or an expiry, which the replicas get, does.
    const bool lost_on_this_node_only = server->event == ServerEventKind::lost && history.meta.nodes > 1;
    if (frees(server->event) && !lost_at_aof_restart && !lost_on_this_node_only) {
      // Only on the node the process's holds are counted on: a replica's copy lost at its restart clears no doubt
      // about the master's (the gate at 1000 runs, seed 167).
      std::erase_if(maybe_counted, [&](const ProcessKey& id) {
        const auto node = written_on.find(id);
        return id.second == server->key && (node == written_on.end() || node->second.node == server->node);
      });
    }
  }
  return found;
}

}  // namespace lockcheck::properties
