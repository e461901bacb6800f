#pragma once
// What a Redis Cluster tells a client about where its nodes are, rewritten for one external client: a
// cluster names its nodes by the addresses they announce, which lead straight to the servers, past the
// client's own fault proxies (routed_fronts.hpp). Rewriting each announced port into the client's front for
// the same node keeps every connection the client makes to any node on its faulted path. Every node and
// every front listens on 127.0.0.1, so a port alone names a node; a port not in the map is left as it is.
//
// What names nodes: the -MOVED and -ASK redirections, and the replies to CLUSTER SLOTS, CLUSTER SHARDS,
// CLUSTER NODES and CLUSTER REPLICAS / SLAVES (which the client asked: see cluster_query_of). RESP2 only:
// the shipped clients (redis-py, ioredis) speak RESP2. Pure functions, no sockets (cluster_address_filter
// cuts a connection's bytes into messages and pairs requests with replies).
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace lockcheck::redis_backend {

using PortMap = std::map<int, int>;  // a node's announced port -> the client's front port for that node

enum class ClusterQuery { other, slots, shards, nodes, replicas };

// Which of the queries above a command is, from its words ("CLUSTER", "slots"); case-insensitive.
ClusterQuery cluster_query_of(const std::vector<std::string>& words);

// Whether `reply` (one whole RESP2 message) has the shape of an answer to `query` (a cluster query): how a
// reply is paired with its request again after a request or a reply before it was lost on the way.
bool answers_cluster_query(ClusterQuery query, std::string_view reply);

// `reply` is one whole RESP2 message answering `query` (other: any command; a redirection is rewritten
// whatever the command was). Returns it with every announced port in `ports` replaced by its front, and
// byte for byte otherwise. Throws std::runtime_error when a reply to a cluster query is not RESP2.
std::string rewrite_cluster_reply(ClusterQuery query, std::string_view reply, const PortMap& ports);

}  // namespace lockcheck::redis_backend
