#pragma once
// What an AddressFilter (address_filter.hpp) must know of the servers behind it: which requests ask for an
// answer that names servers, what such an answer looks like, and how to rewrite it so that it names the
// client's fronts (port_map.hpp). One per kind of topology: ClusterReplies (cluster_reply_rewrite.hpp) and
// SentinelReplies (sentinel_reply_rewrite.hpp).
#include <string>
#include <string_view>
#include <vector>

namespace lockcheck::redis_backend {

class ReplyAddresses {
 public:
  virtual ~ReplyAddresses() = default;
  // The query a request is, from its words (case-insensitive); 0 when its answer names no server as such
  // (a redirection is still rewritten, whatever the request was).
  virtual int query_of(const std::vector<std::string>& words) const = 0;
  // Whether `reply` (one whole RESP2 message) has the shape of an answer to `query` (not 0): how a reply is
  // paired with its request again after a request or a reply before it was lost on the way.
  virtual bool answers(int query, std::string_view reply) const = 0;
  // `reply` (one whole RESP2 message) answering `query` (0: any other command), with every port that names a
  // server replaced by the client's front for it. Throws std::runtime_error when it cannot be read.
  virtual std::string rewrite(int query, std::string_view reply) const = 0;
  // A message pushed to a subscriber (RESP2 `message`, `pmessage` or `smessage`), whole: a channel's payload
  // may name servers too (Sentinel's events). As it is by default.
  virtual std::string rewrite_push(std::string_view frame) const { return std::string(frame); }
};

}  // namespace lockcheck::redis_backend
