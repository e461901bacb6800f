#include "quorum_holds.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "describe.hpp"
#include "server_holders.hpp"

namespace lockcheck::properties {

namespace {

struct Edge {
  std::int64_t t_us = 0;
  bool starts = false;
  std::size_t hold = 0;  // index into the holds
};

// The holds of `owner` among the active ones.
std::vector<std::size_t> active_of(const std::vector<std::size_t>& active, const std::vector<NodeHold>& holds,
                                   std::int64_t owner) {
  std::vector<std::size_t> out;
  for (std::size_t index : active) {
    if (holds[index].owner == owner) out.push_back(index);
  }
  return out;
}

// On how many distinct nodes `owner` has an active hold. `nodes_seen` is scratch space, kept between calls so
// that the sweep, which asks at every edge, allocates nothing.
std::int64_t nodes_held(const std::vector<std::size_t>& active, const std::vector<NodeHold>& holds, std::int64_t owner,
                        std::vector<std::int64_t>& nodes_seen) {
  nodes_seen.clear();
  for (std::size_t index : active) {
    const NodeHold& hold = holds[index];
    if (hold.owner == owner && std::find(nodes_seen.begin(), nodes_seen.end(), hold.node) == nodes_seen.end()) {
      nodes_seen.push_back(hold.node);
    }
  }
  return static_cast<std::int64_t>(nodes_seen.size());
}

std::string describe_majority(const std::vector<std::size_t>& indices, const std::vector<NodeHold>& holds) {
  std::vector<std::int64_t> nodes;
  for (std::size_t index : indices) nodes.push_back(holds[index].node);
  std::sort(nodes.begin(), nodes.end());
  return fmt::format("nodes {}", fmt::join(nodes, ", "));
}

}  // namespace

QuorumFinding two_majorities(const std::vector<NodeHold>& holds, std::int64_t quorum, std::int64_t nodes) {
  QuorumFinding finding;
  std::map<std::string, std::vector<Edge>> edges_by_key;
  for (std::size_t index = 0; index < holds.size(); ++index) {
    const NodeHold& hold = holds[index];
    if (hold.owner < 0 || hold.end_us <= hold.start_us) continue;
    std::vector<Edge>& edges = edges_by_key[hold.key];
    edges.push_back({hold.start_us, true, index});
    edges.push_back({hold.end_us, false, index});
  }
  for (auto& [key, edges] : edges_by_key) {
    // Ends before starts at one instant: a hand-over at the same microsecond is no overlap.
    std::stable_sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
      return a.t_us != b.t_us ? a.t_us < b.t_us : (!a.starts && b.starts);
    });
    // The holds active now: a handful (at most one per node and process), so a flat list, searched, costs less
    // than a tree per node (this sweep was a third of the checker's time on Redlock's runs).
    std::vector<std::size_t> active;
    std::vector<std::int64_t> nodes_seen;
    std::set<std::int64_t> majority_owners;
    for (const Edge& edge : edges) {
      const NodeHold& hold = holds[edge.hold];
      if (!edge.starts) {
        // Each hold starts once, strictly before it ends: it is in the list.
        if (auto at = std::find(active.begin(), active.end(), edge.hold); at != active.end()) active.erase(at);
        if (nodes_held(active, holds, hold.owner, nodes_seen) < quorum) majority_owners.erase(hold.owner);
        continue;
      }
      active.push_back(edge.hold);
      if (nodes_held(active, holds, hold.owner, nodes_seen) < quorum || majority_owners.count(hold.owner) != 0) continue;
      const std::vector<std::size_t> mine = active_of(active, holds, hold.owner);
      for (std::int64_t other : majority_owners) {
        if (finding.count++ > 0) continue;
        std::vector<std::size_t> theirs = active_of(active, holds, other);
        for (std::size_t index : theirs) finding.witnesses.push_back(holds[index].created_i);
        for (std::size_t index : mine) finding.witnesses.push_back(holds[index].created_i);
        std::sort(finding.witnesses.begin(), finding.witnesses.end());
        finding.witnesses.erase(std::unique(finding.witnesses.begin(), finding.witnesses.end()),
                                finding.witnesses.end());
        std::int64_t other_until = 0;
        for (std::size_t index : theirs) other_until = std::max(other_until, holds[index].end_us);
        finding.cause = fmt::format(
            "{} reached a majority of '{}' ({} of {} masters: {}) at t={} while {} still held one ({}, entitled "
            "until t={}): two processes each held the quorum lock",
            owner_name(hold.owner), key, nodes_held(active, holds, hold.owner, nodes_seen), nodes,
            describe_majority(mine, holds),
            format_time_us(edge.t_us), owner_name(other), describe_majority(theirs, holds),
            format_time_us(other_until));
      }
      majority_owners.insert(hold.owner);
    }
  }
  return finding;
}

}  // namespace lockcheck::properties
