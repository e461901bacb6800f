#pragma once
// The StreamFilter on an external client's connection to a cluster node (routed_fronts.hpp): cuts both
// directions into RESP2 messages (resp_frames.hpp), notes which cluster query each request is, pairs the
// replies with the requests in order, and rewrites each reply with cluster_reply_rewrite. Requests go on
// at once, unchanged; a reply is held until it is whole.
//
// Pairing in order holds for plain commands and pipelines; a request or reply lost behind this proxy (a
// lossy link) is made up for by the shape of the replies to cluster queries (answers_cluster_query). Subscriptions (RESP2) answer a (P|S)SUBSCRIBE of
// N channels N times, and push messages and unsubscriptions unasked: those are told by their first element
// and consume no request. A CLUSTER query inside MULTI is answered inside EXEC's array and is not rewritten;
// no client sends one. Bytes that are not RESP2 (RESP3 after HELLO 3) close the connection: passing them
// through unread could let a node's real address reach the client.
#include <deque>
#include <string>

#include "cluster_reply_rewrite.hpp"
#include "stream_filter.hpp"

namespace lockcheck::redis_backend {

class ClusterAddressFilter final : public StreamFilter {
 public:
  explicit ClusterAddressFilter(PortMap ports) : ports_(std::move(ports)) {}
  std::string pass(bool to_server, std::string_view bytes) override;

 private:
  void note_request(std::string_view frame);
  std::string reply(std::string_view frame);

  PortMap ports_;
  std::string requests_, replies_;  // bytes of a message not yet whole, each way
  std::deque<ClusterQuery> pending_;  // the queries still to be answered, oldest first
};

}  // namespace lockcheck::redis_backend
