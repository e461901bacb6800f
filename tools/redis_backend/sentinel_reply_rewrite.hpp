#pragma once
// What Redis Sentinel and its data nodes tell a client about where the data nodes are, rewritten for one
// external client: the sentinels name each data node by the address the run gave it for them and for the
// replicas (its topology front, topology.hpp) and each other by their announced fronts, which lead straight
// to the servers, past the client's own fault proxies (routed_fronts.hpp). Rewriting each such port into the
// client's front for the same server (port_map.hpp) keeps every connection the client makes on its faulted
// path, however it found the address.
//
// What names servers (Redis 7.0.15, RESP2; captured replies in test/sentinel_reply_rewrite_test.cpp):
// - a sentinel's SENTINEL GET-MASTER-ADDR-BY-NAME ([ip, port]: ioredis), SENTINEL MASTER / MASTERS
//   (redis-py reads "ip" and "port"), SENTINEL REPLICAS / SLAVES ("name" is "ip:port", and "port",
//   "master-port") and SENTINEL SENTINELS (ioredis adds them to its sentinels): one flat name-value list
//   per instance; SENTINEL INFO-CACHE (the nodes' INFO, below);
// - a data node's ROLE (a master's replicas, a replica's master) and INFO (master_port, slaveN:...,port=,
//   tcp_port; a sentinel's masterN:...,address=ip:port), which ioredis' ready check reads for the role;
// - the messages a sentinel publishes on its event channels (+switch-master, which ioredis' failover
//   detector subscribes to, +sdown, +slave, ...: "<type> <name> <ip> <port> @ <master> <ip> <port>") and
//   the hello messages sentinels publish on the data nodes' __sentinel__:hello ("ip,port,runid,...").
// Pure functions, no sockets (address_filter.hpp pairs requests with replies, through SentinelReplies).
#include <string>
#include <string_view>
#include <vector>

#include "port_map.hpp"
#include "reply_addresses.hpp"

namespace lockcheck::redis_backend {

enum class SentinelQuery { other = 0, master_address, instance, instances, info_cache, role, info };

// Which of the queries above a command is, from its words ("SENTINEL", "masters"); case-insensitive.
SentinelQuery sentinel_query_of(const std::vector<std::string>& words);

// Whether `reply` (one whole RESP2 message) has the shape of an answer to `query` (not other).
bool answers_sentinel_query(SentinelQuery query, std::string_view reply);

// `reply` is one whole RESP2 message answering `query` (other: returned as it is). Returns it with every
// port in `ports` that names a server replaced by its front, and byte for byte otherwise. Throws
// std::runtime_error when it is not RESP2.
std::string rewrite_sentinel_reply(SentinelQuery query, std::string_view reply, const PortMap& ports);

// `frame` is one whole pushed message ([message, channel, payload] or [pmessage, pattern, channel, payload]);
// on a Sentinel event channel ("+..." or "-...") or __sentinel__:* its payload's addresses ("ip port",
// "ip:port", "ip,port") are rewritten; other channels carry data and pass as they are.
std::string rewrite_sentinel_push(std::string_view frame, const PortMap& ports);

// The above for an AddressFilter on the front of a sentinel or of a data node of a [sentinel].
class SentinelReplies final : public ReplyAddresses {
 public:
  explicit SentinelReplies(PortMap ports) : ports_(std::move(ports)) {}
  int query_of(const std::vector<std::string>& words) const override { return static_cast<int>(sentinel_query_of(words)); }
  bool answers(int query, std::string_view reply) const override { return answers_sentinel_query(static_cast<SentinelQuery>(query), reply); }
  std::string rewrite(int query, std::string_view reply) const override {
    return rewrite_sentinel_reply(static_cast<SentinelQuery>(query), reply, ports_);
  }
  std::string rewrite_push(std::string_view frame) const override { return rewrite_sentinel_push(frame, ports_); }

 private:
  PortMap ports_;
};

}  // namespace lockcheck::redis_backend
