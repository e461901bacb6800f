// CLUSTER KEYSLOT / MYID / INFO / SLOTS / SHARDS / NODES / COUNTKEYSINSLOT / GETKEYSINSLOT, ASKING, READONLY,
// READWRITE, answered from the node's own cluster view (cluster_view.hpp) as Redis 7.0 prints them.
#include <algorithm>

#include "redis/commands/cluster/cluster_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/server/node.hpp"
#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

Reply disabled() { return Reply::error("ERR This instance has cluster support disabled"); }

Reply node_entry(const ClusterNodeInfo& node) {
  // [ip, port, id, metadata]; the metadata map is empty without announced hostnames (RESP2: empty array).
  return Reply::array({Reply::bulk(node.host), Reply::integer_reply(node.port), Reply::bulk(node.id), Reply::array({})});
}

std::vector<int> replicas_of(const ClusterView& view, int master) {
  std::vector<int> replicas;
  for (std::size_t i = 0; i < view.nodes.size(); ++i) {
    if (view.nodes[i].master == master) replicas.push_back(static_cast<int>(i));
  }
  return replicas;
}

Reply slots(const ClusterView& view) {
  std::vector<std::pair<std::pair<int, int>, int>> ranges;  // ((first, last), master), by first slot
  for (int master : view.serving_masters()) {
    for (const auto& range : view.ranges_of(master)) ranges.push_back({range, master});
  }
  std::sort(ranges.begin(), ranges.end());
  std::vector<Reply> out;
  for (const auto& [range, master] : ranges) {
    std::vector<Reply> entry{Reply::integer_reply(range.first), Reply::integer_reply(range.second),
                             node_entry(view.nodes[static_cast<std::size_t>(master)])};
    for (int replica : replicas_of(view, master)) {
      if (!view.nodes[static_cast<std::size_t>(replica)].failed) entry.push_back(node_entry(view.nodes[static_cast<std::size_t>(replica)]));
    }
    out.push_back(Reply::array(std::move(entry)));
  }
  return Reply::array(std::move(out));
}

Reply shard_node(const ClusterNodeInfo& node) {
  return Reply::array({Reply::bulk("id"), Reply::bulk(node.id), Reply::bulk("port"), Reply::integer_reply(node.port),
                       Reply::bulk("ip"), Reply::bulk(node.host), Reply::bulk("endpoint"), Reply::bulk(node.host),
                       Reply::bulk("role"), Reply::bulk(node.master < 0 ? "master" : "replica"),
                       Reply::bulk("replication-offset"), Reply::integer_reply(0), Reply::bulk("health"),
                       Reply::bulk(node.failed ? "fail" : "online")});
}

Reply shards(const ClusterView& view) {
  std::vector<Reply> out;
  for (std::size_t i = 0; i < view.nodes.size(); ++i) {
    if (view.nodes[i].master >= 0) continue;
    const int master = static_cast<int>(i);
    std::vector<Reply> ranges;
    for (const auto& [first, last] : view.ranges_of(master)) {
      ranges.push_back(Reply::integer_reply(first));
      ranges.push_back(Reply::integer_reply(last));
    }
    std::vector<Reply> nodes{shard_node(view.nodes[i])};
    for (int replica : replicas_of(view, master)) nodes.push_back(shard_node(view.nodes[static_cast<std::size_t>(replica)]));
    out.push_back(Reply::array({Reply::bulk("slots"), Reply::array(std::move(ranges)), Reply::bulk("nodes"),
                                Reply::array(std::move(nodes))}));
  }
  return Reply::array(std::move(out));
}

std::string nodes_text(const ClusterView& view, int myself) {
  std::string text;
  for (std::size_t i = 0; i < view.nodes.size(); ++i) {
    const ClusterNodeInfo& node = view.nodes[i];
    const bool me = static_cast<int>(i) == myself;
    std::string flags = std::string(me ? "myself," : "") + (node.master < 0 ? "master" : "slave") + (node.failed ? ",fail" : "");
    text += node.id + " " + node.address() + "@" + std::to_string(node.port + 10000) + " " + flags + " " +
            (node.master < 0 ? "-" : view.nodes[static_cast<std::size_t>(node.master)].id) + " 0 0 " +
            std::to_string(node.config_epoch) + (node.failed ? " disconnected" : " connected");
    for (const auto& [first, last] : view.ranges_of(static_cast<int>(i))) {
      text += " " + std::to_string(first) + (first == last ? "" : "-" + std::to_string(last));
    }
    if (me) {
      for (const auto& [slot, to] : view.migrating) text += " [" + std::to_string(slot) + "->-" + view.nodes[static_cast<std::size_t>(to)].id + "]";
      for (const auto& [slot, from] : view.importing) text += " [" + std::to_string(slot) + "-<-" + view.nodes[static_cast<std::size_t>(from)].id + "]";
    }
    text += "\n";
  }
  return text;
}

std::string info_text(const ClusterView& view, int myself) {
  std::int64_t assigned = 0, failed = 0;
  for (std::int16_t owner : view.slot_owner) {
    if (owner < 0) continue;
    ++assigned;
    if (view.nodes[static_cast<std::size_t>(owner)].failed) ++failed;
  }
  const ClusterNodeInfo& me = view.nodes[static_cast<std::size_t>(myself)];
  const ClusterNodeInfo& my_master = me.master < 0 ? me : view.nodes[static_cast<std::size_t>(me.master)];
  const auto line = [](std::string_view name, const std::string& value) { return std::string(name) + ":" + value + "\r\n"; };
  return line("cluster_state", view.state_ok ? "ok" : "fail") + line("cluster_slots_assigned", std::to_string(assigned)) +
         line("cluster_slots_ok", std::to_string(assigned - failed)) + line("cluster_slots_pfail", "0") +
         line("cluster_slots_fail", std::to_string(failed)) + line("cluster_known_nodes", std::to_string(view.nodes.size())) +
         line("cluster_size", std::to_string(view.serving_masters().size())) +
         line("cluster_current_epoch", std::to_string(view.current_epoch)) +
         line("cluster_my_epoch", std::to_string(my_master.config_epoch)) + line("cluster_stats_messages_sent", "0") +
         line("cluster_stats_messages_received", "0") + line("total_cluster_links_buffer_limit_exceeded", "0");
}

Reply keys_in_slot(CommandContext& ctx, std::int64_t slot, std::int64_t limit) {
  std::vector<Reply> out;
  for (const auto& [key, entry] : ctx.keys.database(0).entries) {
    if (static_cast<std::int64_t>(out.size()) >= limit) break;
    if (key_hash_slot(key) == slot) out.push_back(Reply::bulk(key));
  }
  return Reply::array(std::move(out));
}

}  // namespace

Reply cluster(CommandContext& ctx) {
  const Command& args = ctx.args;
  const std::string sub = to_lower(args[1]);
  const auto exact = [&](std::size_t argc) { return args.size() == argc; };
  const ClusterView* view = ctx.node.cluster_view();
  if (view == nullptr) return disabled();
  if (sub == "keyslot") return exact(3) ? Reply::integer_reply(key_hash_slot(args[2])) : err::arity("cluster|keyslot");
  const int myself = ctx.node.cluster_myself();
  if (sub == "myid") return exact(2) ? Reply::bulk(view->nodes[static_cast<std::size_t>(myself)].id) : err::arity("cluster|myid");
  if (sub == "info") return exact(2) ? Reply::bulk(info_text(*view, myself)) : err::arity("cluster|info");
  if (sub == "slots") return exact(2) ? slots(*view) : err::arity("cluster|slots");
  if (sub == "shards") return exact(2) ? shards(*view) : err::arity("cluster|shards");
  if (sub == "nodes") return exact(2) ? Reply::bulk(nodes_text(*view, myself)) : err::arity("cluster|nodes");
  if (sub == "countkeysinslot") {
    if (!exact(3)) return err::arity("cluster|countkeysinslot");
    auto slot = parse_int64(args[2]);
    if (!slot) return err::not_integer();
    if (*slot < 0 || *slot >= kClusterSlots) return Reply::error("ERR Invalid slot");
    return Reply::integer_reply(static_cast<std::int64_t>(keys_in_slot(ctx, *slot, INT64_MAX).elements.size()));
  }
  if (sub == "getkeysinslot") {
    if (!exact(4)) return err::arity("cluster|getkeysinslot");
    auto slot = parse_int64(args[2]);
    auto limit = parse_int64(args[3]);
    if (!slot || !limit) return err::not_integer();
    if (*slot < 0 || *slot >= kClusterSlots || *limit < 0) return Reply::error("ERR Invalid slot or number of keys");
    return keys_in_slot(ctx, *slot, *limit);
  }
  return Reply::error("ERR unknown subcommand '" + args[1] + "'. Try CLUSTER HELP.");
}

Reply asking(CommandContext& ctx) {
  if (ctx.node.cluster_view() == nullptr) return disabled();
  ctx.session.asking = true;
  return Reply::ok();
}

Reply readonly(CommandContext& ctx) {
  if (ctx.node.cluster_view() == nullptr) return disabled();
  ctx.session.readonly = true;
  return Reply::ok();
}

Reply readwrite(CommandContext& ctx) {
  if (ctx.node.cluster_view() == nullptr) return disabled();
  ctx.session.readonly = false;
  return Reply::ok();
}

}  // namespace lockcheck::mock::cmd
