#pragma once
// What a Redis Cluster tells a client about where its nodes are, rewritten for one external client: a
// cluster names its nodes by the addresses they announce, which lead straight to the servers, past the
// client's own fault proxies (routed_fronts.hpp). Rewriting each announced port into the client's front for
// the same node (port_map.hpp) keeps every connection the client makes to any node on its faulted path.
//
// What names nodes: the -MOVED and -ASK redirections, and the replies to CLUSTER SLOTS, CLUSTER SHARDS,
// CLUSTER NODES and CLUSTER REPLICAS / SLAVES (which the client asked: see cluster_query_of). RESP2 only:
// the shipped clients (redis-py, ioredis) speak RESP2. Pure functions, no sockets (address_filter.hpp
// cuts a connection's bytes into messages and pairs requests with replies, through ClusterReplies).
#include <string>
#include <string_view>
#include <vector>

#include "port_map.hpp"
#include "reply_addresses.hpp"

namespace lockcheck::redis_backend {

enum class ClusterQuery { other = 0, slots, shards, nodes, replicas };

// Which of the queries above a command is, from its words ("CLUSTER", "slots"); case-insensitive.
ClusterQuery cluster_query_of(const std::vector<std::string>& words);

// Whether `reply` (one whole RESP2 message) has the shape of an answer to `query` (a cluster query): how a
// reply is paired with its request again after a request or a reply before it was lost on the way.
bool answers_cluster_query(ClusterQuery query, std::string_view reply);

// `reply` is one whole RESP2 message answering `query` (other: any command; a redirection is rewritten
// whatever the command was). Returns it with every announced port in `ports` replaced by its front, and
// byte for byte otherwise. Throws std::runtime_error when a reply to a cluster query is not RESP2.
std::string rewrite_cluster_reply(ClusterQuery query, std::string_view reply, const PortMap& ports);

// The above for an AddressFilter on a cluster node's front.
class ClusterReplies final : public ReplyAddresses {
 public:
  explicit ClusterReplies(PortMap ports) : ports_(std::move(ports)) {}
  int query_of(const std::vector<std::string>& words) const override { return static_cast<int>(cluster_query_of(words)); }
  bool answers(int query, std::string_view reply) const override { return answers_cluster_query(static_cast<ClusterQuery>(query), reply); }
  std::string rewrite(int query, std::string_view reply) const override {
    return rewrite_cluster_reply(static_cast<ClusterQuery>(query), reply, ports_);
  }

 private:
  PortMap ports_;
};

}  // namespace lockcheck::redis_backend
