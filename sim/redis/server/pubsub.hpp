#pragma once
// Who listens to what: channels (SUBSCRIBE), glob patterns (PSUBSCRIBE) and shard channels (SSUBSCRIBE),
// by client id. Ordered maps, so deliveries and PUBSUB listings come in the same order on every run (Redis
// uses hash order there; README, known differences).
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lockcheck/reply.hpp"

namespace lockcheck::mock {

enum class SubscriptionKind : std::uint8_t { channel, pattern, shard };

// One message for one client: the push to send it.
using Delivery = std::pair<std::int64_t, Reply>;

class PubSubRegistry {
 public:
  void add(SubscriptionKind kind, const std::string& name, std::int64_t client_id);
  void remove(SubscriptionKind kind, const std::string& name, std::int64_t client_id);

  // PUBLISH: "message" to the channel's subscribers, then "pmessage" for each matching pattern of each
  // client (a client with two matching patterns gets two).
  std::vector<Delivery> published(const std::string& channel, const std::string& message) const;
  // SPUBLISH: "smessage" to the shard channel's subscribers.
  std::vector<Delivery> shard_published(const std::string& channel, const std::string& message) const;

  // PUBSUB CHANNELS / SHARDCHANNELS [pattern]: names with at least one subscriber, matching `pattern`.
  std::vector<std::string> names(SubscriptionKind kind, const std::string* pattern) const;
  // PUBSUB NUMSUB / SHARDNUMSUB: subscribers of one name.
  std::int64_t subscribers(SubscriptionKind kind, const std::string& name) const;
  // PUBSUB NUMPAT and INFO's pubsub_channels / pubsub_patterns: distinct names in use.
  std::size_t size(SubscriptionKind kind) const { return of(kind).size(); }

 private:
  using Listeners = std::map<std::string, std::set<std::int64_t>>;
  const Listeners& of(SubscriptionKind kind) const { return listeners_[static_cast<std::size_t>(kind)]; }
  Listeners& of(SubscriptionKind kind) { return listeners_[static_cast<std::size_t>(kind)]; }

  Listeners listeners_[3];
};

}  // namespace lockcheck::mock
