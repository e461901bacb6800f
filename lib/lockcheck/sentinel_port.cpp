#include "lockcheck/sentinel_port.hpp"

#include <algorithm>

namespace lockcheck {
namespace {

CallResult not_a_node() { return CallResult::failed(CallStatus::not_sent, "a sentinel port has one node: the master"); }

CallResult no_master(const std::string& name) {
  return CallResult::failed(CallStatus::not_sent, "no sentinel named a reachable master for '" + name + "'");
}

}  // namespace

bool refused_as_not_master(const Reply& reply) {
  const std::string_view code = reply.error_code();
  return reply.is_error() && (code == "READONLY" || code == "LOADING" || code == "MASTERDOWN" || code == "NOREPLICAS");
}

SentinelPort::SentinelPort(Port& nodes, std::vector<std::string> addresses, std::vector<std::size_t> sentinels,
                           std::string master_name, SentinelPortOptions options)
    : nodes_(nodes),
      addresses_(std::move(addresses)),
      sentinels_(std::move(sentinels)),
      master_name_(std::move(master_name)),
      options_(options) {}

std::uint64_t SentinelPort::connection_epoch(std::size_t node) const {
  if (node != 0) return 0;
  std::optional<std::size_t> master;
  {
    std::lock_guard lock(mutex_);
    master = master_;
  }
  if (!master) return 0;
  return (static_cast<std::uint64_t>(*master + 1) << 48) ^ nodes_.connection_epoch(*master);
}

Task<CallResult> SentinelPort::call_on_connection(std::size_t node, std::uint64_t epoch, Command command) {
  if (node != 0) co_return not_a_node();
  const auto master = known_master();
  if (!master || epoch >> 48 != *master + 1) co_return CallResult::failed(CallStatus::not_sent, "the connection changed");
  const std::uint64_t node_epoch = epoch ^ (static_cast<std::uint64_t>(*master + 1) << 48);
  CallResult result = co_await nodes_.call_on_connection(*master, node_epoch, std::move(command));
  // As call() does, the next command asks the sentinels first; but this one is never re-sent.
  if (!result.replied() || refused_as_not_master(result.reply)) forget_master();
  co_return result;
}

std::optional<std::size_t> SentinelPort::known_master() {
  std::lock_guard lock(mutex_);
  return master_;
}

void SentinelPort::forget_master() {
  std::lock_guard lock(mutex_);
  master_.reset();
}

std::optional<std::size_t> SentinelPort::node_named_by(const Reply& reply) const {
  // ["127.0.0.1", "6380"], or nil when the sentinel does not know the name.
  if (reply.kind != Reply::Kind::array || reply.elements.size() != 2) return std::nullopt;
  const std::string address = reply.elements[0].text + ":" + reply.elements[1].text;
  for (std::size_t i = 0; i < addresses_.size(); ++i) {
    if (addresses_[i] == address) return i;
  }
  return std::nullopt;
}

Task<bool> SentinelPort::discover() {
  std::size_t first = 0;
  {
    std::lock_guard lock(mutex_);
    first = ask_first_;
  }
  // A node that did not answer ROLE is not asked again in this lookup when another sentinel names it too: the
  // sentinels mostly agree, and each ask of an unreachable node costs a whole command timeout.
  std::vector<std::size_t> unanswered;
  for (std::size_t i = 0; i < sentinels_.size(); ++i) {
    const std::size_t which = (first + i) % sentinels_.size();
    Command ask{"SENTINEL", "GET-MASTER-ADDR-BY-NAME", master_name_};
    CallResult named = co_await nodes_.call(sentinels_[which], std::move(ask));
    if (!named.replied()) continue;
    const auto candidate = node_named_by(named.reply);
    if (!candidate || std::find(unanswered.begin(), unanswered.end(), *candidate) != unanswered.end()) continue;
    Command role{"ROLE"};
    CallResult confirmed = co_await nodes_.call(*candidate, std::move(role));
    const Reply& reply = confirmed.reply;
    if (!confirmed.replied()) unanswered.push_back(*candidate);
    if (!confirmed.replied() || reply.kind != Reply::Kind::array || reply.elements.empty() ||
        reply.elements[0].text != "master") {
      continue;
    }
    std::lock_guard lock(mutex_);
    master_ = *candidate;
    ask_first_ = which;
    co_return true;
  }
  co_return false;
}

Task<CallResult> SentinelPort::call(std::size_t node, Command command) {
  if (node != 0) co_return not_a_node();
  CallResult result = no_master(master_name_);
  for (std::size_t lookup = 0; lookup <= options_.max_rediscoveries; ++lookup) {
    auto master = known_master();
    if (!master) {
      if (!co_await discover()) {
        // Every sentinel was asked and no master answered: asking them all again at once would find the same
        // (and cost the same timeouts), so the caller's own retry and backoff apply; the next call asks from
        // the next sentinel.
        std::lock_guard lock(mutex_);
        ask_first_ = (ask_first_ + 1) % std::max<std::size_t>(sentinels_.size(), 1);
        break;
      }
      master = known_master();
    }
    result = co_await nodes_.call(*master, command);
    if (result.status == CallStatus::unknown) {
      // It may have run: never retried here; the next command asks the sentinels first.
      forget_master();
      co_return result;
    }
    if (result.status == CallStatus::replied && !refused_as_not_master(result.reply)) co_return result;
    forget_master();  // gone, demoted, loading or short of replicas: nothing ran, so it is retried at the master
  }
  // Still refused after every lookup: nothing ran, so the caller's own retry and backoff apply (an error reply
  // would end its client, as a server error the lock cannot handle).
  if (result.status == CallStatus::replied) {
    co_return CallResult::failed(CallStatus::not_sent, result.reply.text + " (after " +
                                                           std::to_string(options_.max_rediscoveries + 1) +
                                                           " master lookups; nothing ran)");
  }
  co_return result;
}

Task<CallResult> SentinelPort::subscribe(std::size_t node, std::string channel) {
  if (node != 0) co_return not_a_node();
  if (!known_master() && !co_await discover()) co_return no_master(master_name_);
  const auto master = known_master();
  if (!master) co_return no_master(master_name_);
  CallResult result = co_await nodes_.subscribe(*master, std::move(channel));
  if (result.replied() && !result.reply.is_error()) {
    std::lock_guard lock(mutex_);
    subscribed_at_ = *master;
  }
  co_return result;
}

Task<CallResult> SentinelPort::await_message(std::size_t node, std::string channel, Micros timeout) {
  if (node != 0) co_return not_a_node();
  std::optional<std::size_t> target;
  {
    std::lock_guard lock(mutex_);
    target = subscribed_at_;
  }
  if (!target) co_return CallResult::failed(CallStatus::not_sent, "not subscribed to " + channel);
  co_return co_await nodes_.await_message(*target, std::move(channel), timeout);
}

}  // namespace lockcheck
