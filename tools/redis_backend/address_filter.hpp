#pragma once
// The StreamFilter on an external client's connection to a server of a [cluster] or a [sentinel]
// (routed_fronts.hpp): cuts both directions into RESP2 messages (resp_frames.hpp), notes which query each
// request is (ReplyAddresses::query_of), pairs the replies with the requests in order, and rewrites each
// reply so that every server it names is named by the client's own front (reply_addresses.hpp). Requests go
// on at once, unchanged; a reply is held until it is whole.
//
// Pairing in order holds for plain commands and pipelines; a request or reply lost behind this proxy (a
// lossy link) is made up for by the shape of the replies to the queries (ReplyAddresses::answers).
// Subscriptions (RESP2) answer a (P|S)SUBSCRIBE of N channels N times, and push messages and unsubscriptions
// unasked: those are told by their first element and consume no request; a pushed message passes
// ReplyAddresses::rewrite_push (Sentinel's events name servers). A query inside MULTI is answered inside
// EXEC's array and is not rewritten; no client sends one. Bytes that are not RESP2 (RESP3 after HELLO 3)
// close the connection: passing them through unread could let a server's real address reach the client.
#include <deque>
#include <memory>
#include <string>

#include "reply_addresses.hpp"
#include "stream_filter.hpp"

namespace lockcheck::redis_backend {

class AddressFilter final : public StreamFilter {
 public:
  explicit AddressFilter(std::shared_ptr<const ReplyAddresses> replies) : replies_(std::move(replies)) {}
  std::string pass(bool to_server, std::string_view bytes) override;

 private:
  void note_request(std::string_view frame);
  std::string reply(std::string_view frame);

  std::shared_ptr<const ReplyAddresses> replies_;
  std::string requests_, replies_bytes_;  // bytes of a message not yet whole, each way
  std::deque<int> pending_;  // the queries still to be answered, oldest first
};

}  // namespace lockcheck::redis_backend
