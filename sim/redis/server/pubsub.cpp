#include "redis/server/pubsub.hpp"

#include "redis/util/glob.hpp"

namespace lockcheck::mock {

void PubSubRegistry::add(SubscriptionKind kind, const std::string& name, std::int64_t client_id) {
  of(kind)[name].insert(client_id);
}

void PubSubRegistry::remove(SubscriptionKind kind, const std::string& name, std::int64_t client_id) {
  Listeners& listeners = of(kind);
  auto it = listeners.find(name);
  if (it == listeners.end()) return;
  it->second.erase(client_id);
  if (it->second.empty()) listeners.erase(it);
}

std::vector<Delivery> PubSubRegistry::published(const std::string& channel, const std::string& message) const {
  std::vector<Delivery> out;
  const Listeners& channels = of(SubscriptionKind::channel);
  if (auto it = channels.find(channel); it != channels.end()) {
    for (std::int64_t client_id : it->second) {
      out.emplace_back(client_id, Reply::push({Reply::bulk("message"), Reply::bulk(channel), Reply::bulk(message)}));
    }
  }
  for (const auto& [pattern, clients] : of(SubscriptionKind::pattern)) {
    if (!glob_match(pattern, channel)) continue;
    for (std::int64_t client_id : clients) {
      out.emplace_back(client_id, Reply::push({Reply::bulk("pmessage"), Reply::bulk(pattern), Reply::bulk(channel),
                                               Reply::bulk(message)}));
    }
  }
  return out;
}

std::vector<Delivery> PubSubRegistry::shard_published(const std::string& channel, const std::string& message) const {
  std::vector<Delivery> out;
  const Listeners& shards = of(SubscriptionKind::shard);
  if (auto it = shards.find(channel); it != shards.end()) {
    for (std::int64_t client_id : it->second) {
      out.emplace_back(client_id, Reply::push({Reply::bulk("smessage"), Reply::bulk(channel), Reply::bulk(message)}));
    }
  }
  return out;
}

std::vector<std::string> PubSubRegistry::names(SubscriptionKind kind, const std::string* pattern) const {
  std::vector<std::string> out;
  for (const auto& [name, clients] : of(kind)) {
    if (pattern == nullptr || glob_match(*pattern, name)) out.push_back(name);
  }
  return out;
}

std::int64_t PubSubRegistry::subscribers(SubscriptionKind kind, const std::string& name) const {
  auto it = of(kind).find(name);
  return it == of(kind).end() ? 0 : static_cast<std::int64_t>(it->second.size());
}

}  // namespace lockcheck::mock
