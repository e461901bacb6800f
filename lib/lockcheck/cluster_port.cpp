#include "lockcheck/cluster_port.hpp"

#include "lockcheck/assert.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "lockcheck/key_slot.hpp"

namespace lockcheck {
namespace {

std::optional<std::int64_t> parse_number(std::string_view text) {
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The pauses before re-sending a command a node refused without running it (TRYAGAIN, CLUSTERDOWN).
class BusyRetries {
 public:
  explicit BusyRetries(const ClusterPortOptions& options) : options_(options), next_(options.busy_retry_wait) {}
  // The next pause, or nullopt once the retries or the time budget are spent.
  std::optional<Micros> next_pause() {
    if (retries_ == options_.max_busy_retries || waited_ >= options_.busy_wait_budget) return std::nullopt;
    const Micros pause = std::min(next_, options_.busy_wait_budget - waited_);
    ++retries_;
    waited_ += pause;
    next_ *= 2;
    return pause;
  }
  std::string describe() const {
    return fmt::format("still after {} re-sends over {} ms", retries_, std::chrono::duration_cast<Millis>(waited_).count());
  }

 private:
  const ClusterPortOptions& options_;
  Micros next_;
  Micros waited_{0};
  std::size_t retries_ = 0;
};

// A refusal this port gives up on: the caller learns that nothing ran, and why.
CallResult nothing_ran(const Reply& refusal, const std::string& how_long) {
  return CallResult::failed(CallStatus::not_sent, fmt::format("{} ({}; nothing ran)", refusal.text, how_long));
}

CallResult not_a_node() { return CallResult::failed(CallStatus::not_sent, "a cluster port has one node: the cluster"); }

}  // namespace

ClusterPort::ClusterPort(Port& nodes, Clock& clock, std::vector<std::string> addresses, ClusterPortOptions options)
    : nodes_(nodes), clock_(clock), addresses_(std::move(addresses)), options_(options), slot_node_(kClusterSlots, -1) {}

std::optional<std::size_t> ClusterPort::index_of(const std::string& address) const {
  for (std::size_t i = 0; i < addresses_.size(); ++i) {
    if (addresses_[i] == address) return i;
  }
  return std::nullopt;
}

bool ClusterPort::stale() {
  std::lock_guard lock(mutex_);
  return stale_;
}

void ClusterPort::mark_stale() {
  std::lock_guard lock(mutex_);
  stale_ = true;
}

std::optional<std::size_t> ClusterPort::node_for_slot(int slot) {
  std::lock_guard lock(mutex_);
  if (slot < 0 || slot >= kClusterSlots || slot_node_[static_cast<std::size_t>(slot)] < 0) return std::nullopt;
  return static_cast<std::size_t>(slot_node_[static_cast<std::size_t>(slot)]);
}

std::uint64_t ClusterPort::connection_epoch(std::size_t node) const {
  if (node != 0) return 0;
  std::size_t last = 0;
  {
    std::lock_guard lock(mutex_);
    last = last_node_;
  }
  // A command routed to another node runs on another connection: the node is part of the epoch.
  return (static_cast<std::uint64_t>(last) << 48) ^ nodes_.connection_epoch(last);
}

Task<CallResult> ClusterPort::call_on_connection(std::size_t node, std::uint64_t epoch, Command command) {
  if (node != 0) co_return not_a_node();
  const std::optional<int> slot = command_slot(command);
  const std::size_t target = static_cast<std::size_t>(epoch >> 48);
  {
    std::lock_guard lock(mutex_);
    const bool routes_elsewhere = slot && *slot >= 0 && slot_node_[static_cast<std::size_t>(*slot)] >= 0 &&
                                  static_cast<std::size_t>(slot_node_[static_cast<std::size_t>(*slot)]) != target;
    if (target != last_node_ || routes_elsewhere) {
      co_return CallResult::failed(CallStatus::not_sent, "the connection changed");
    }
  }
  const std::uint64_t node_epoch = epoch ^ (static_cast<std::uint64_t>(target) << 48);
  CallResult result = co_await nodes_.call_on_connection(target, node_epoch, std::move(command));
  // As call() does: a node that did not answer may have failed over; the map is read before the next command.
  if (!result.replied()) suspect(target);
  co_return result;
}

std::size_t ClusterPort::route(std::optional<int> slot) {
  std::lock_guard lock(mutex_);
  if (slot && *slot >= 0 && slot_node_[static_cast<std::size_t>(*slot)] >= 0) {
    last_node_ = static_cast<std::size_t>(slot_node_[static_cast<std::size_t>(*slot)]);
  }
  return last_node_;
}

bool ClusterPort::install_slot_map(const Reply& slots) {
  if (slots.kind != Reply::Kind::array) return false;
  std::vector<std::int16_t> map(kClusterSlots, -1);
  for (const Reply& range : slots.elements) {
    // [first, last, [host, port, id, ...], replicas...]
    if (range.elements.size() < 3 || range.elements[2].elements.size() < 2) return false;
    const std::int64_t first = range.elements[0].integer, last = range.elements[1].integer;
    const Reply& master = range.elements[2];
    auto index = index_of(master.elements[0].text + ":" + std::to_string(master.elements[1].integer));
    if (!index || first < 0 || last >= kClusterSlots || first > last) return false;
    for (std::int64_t slot = first; slot <= last; ++slot) map[static_cast<std::size_t>(slot)] = static_cast<std::int16_t>(*index);
  }
  std::lock_guard lock(mutex_);
  slot_node_ = std::move(map);
  stale_ = false;
  return true;
}

Task<bool> ClusterPort::refresh() {
  std::size_t start = 0;
  {
    std::lock_guard lock(mutex_);
    start = refresh_from_;
  }
  for (std::size_t i = 0; i < addresses_.size(); ++i) {
    const std::size_t node = (start + i) % addresses_.size();
    Command slots_command{"CLUSTER", "SLOTS"};
    CallResult result = co_await nodes_.call(node, std::move(slots_command));
    if (!result.replied() || result.reply.is_error() || !install_slot_map(result.reply)) continue;
    std::lock_guard lock(mutex_);
    refresh_from_ = node;
    co_return true;
  }
  co_return false;
}

std::optional<ClusterPort::Redirect> ClusterPort::redirect_of(const Reply& reply) const {
  if (!reply.is_error()) return std::nullopt;
  const std::string_view code = reply.error_code();
  if (code != "MOVED" && code != "ASK") return std::nullopt;
  // "MOVED 3999 127.0.0.1:6381"
  const std::string& text = reply.text;
  const std::size_t slot_at = code.size() + 1;
  const std::size_t space = text.find(' ', slot_at);
  if (space == std::string::npos) return std::nullopt;
  auto slot = parse_number(std::string_view(text).substr(slot_at, space - slot_at));
  auto node = index_of(text.substr(space + 1));
  if (!slot || *slot < 0 || *slot >= kClusterSlots || !node) return std::nullopt;
  return Redirect{code == "MOVED", static_cast<int>(*slot), *node};
}

void ClusterPort::suspect(std::size_t node) {
  std::lock_guard lock(mutex_);
  LOCKCHECK_ASSERT(!addresses_.empty());
  stale_ = true;
  refresh_from_ = (node + 1) % addresses_.size();
}

Task<CallResult> ClusterPort::call(std::size_t node, Command command) {
  if (node != 0) co_return not_a_node();
  std::optional<int> slot = command_slot(command);
  if (slot == kCrossSlot) {
    // Sent to the first key's node all the same: the server's CROSSSLOT reply is the error the caller sees.
    slot = key_hash_slot(command[command_key_indices(command).front()]);
  }
  if (stale()) co_await refresh();
  std::size_t target = route(slot);
  bool asking = false;
  std::size_t hops = 0;
  BusyRetries busy(options_);
  CallResult result;
  // Each re-send after a pause starts routing afresh, with a redirect bound of its own.
  const std::size_t max_tries = (options_.max_redirects + 1) * (options_.max_busy_retries + 1);
  for (std::size_t attempt = 0; attempt < max_tries; ++attempt) {
    if (asking) {
      // ASKING and the command travel one after the other on the node's connection.
      Command asking_command{"ASKING"};
      CallResult admitted = co_await nodes_.call(target, std::move(asking_command));
      if (!admitted.replied()) co_return admitted;
    }
    result = co_await nodes_.call(target, command);
    if (result.status == CallStatus::not_sent) {
      // Nothing ran: the node is gone (a failover?). Read the map again and retry where it now points.
      suspect(target);
      if (hops++ == options_.max_redirects || !co_await refresh()) co_return result;
      target = route(slot);
      asking = false;
      continue;
    }
    if (!result.replied()) {
      // It may have run: never retried here. But a node that stops answering may have failed over: the map
      // is read again before the next command.
      suspect(target);
      co_return result;
    }
    const std::string_view code = result.reply.error_code();
    if (code == "TRYAGAIN" || code == "CLUSTERDOWN") {
      // The node refused before running anything: its slot is mid-migration with keys on both sides
      // (TRYAGAIN), or it cannot serve the slot now (CLUSTERDOWN: no majority, slot unassigned). Both pass
      // with time, so the same command goes again after a pause; if they persist, the caller learns that
      // nothing ran and applies its own retry policy.
      if (code == "CLUSTERDOWN") mark_stale();
      const std::optional<Micros> pause = busy.next_pause();
      if (!pause) co_return nothing_ran(result.reply, busy.describe());
      co_await clock_.sleep(*pause);
      if (stale()) co_await refresh();
      target = route(slot);
      asking = false;
      hops = 0;
      continue;
    }
    const auto redirect = redirect_of(result.reply);
    if (!redirect) co_return result;
    // A redirect means this node ran nothing; past the bound (a loop while the cluster reconfigures), the
    // caller's retry waits longer than this port should.
    if (hops++ == options_.max_redirects) co_return nothing_ran(result.reply, fmt::format("after {} redirects", hops));
    asking = !redirect->moved;
    target = redirect->node;
    if (redirect->moved) {
      std::lock_guard lock(mutex_);
      slot_node_[static_cast<std::size_t>(redirect->slot)] = static_cast<std::int16_t>(redirect->node);
      stale_ = true;  // one moved slot usually means more: read the whole map before the next command
    }
  }
  co_return result;
}

Task<CallResult> ClusterPort::subscribe(std::size_t node, std::string channel) {
  if (node != 0) co_return not_a_node();
  if (stale()) co_await refresh();
  const std::size_t target = route(key_hash_slot(channel));
  CallResult result = co_await nodes_.subscribe_shard(target, channel);
  if (result.replied() && !result.reply.is_error()) {
    std::lock_guard lock(mutex_);
    subscribed_at_[channel] = target;
  }
  co_return result;
}

Task<CallResult> ClusterPort::await_message(std::size_t node, std::string channel, Micros timeout) {
  if (node != 0) co_return not_a_node();
  std::size_t target = 0;
  {
    std::lock_guard lock(mutex_);
    auto it = subscribed_at_.find(channel);
    if (it == subscribed_at_.end()) co_return CallResult::failed(CallStatus::not_sent, "not subscribed to " + channel);
    target = it->second;
  }
  co_return co_await nodes_.await_message(target, std::move(channel), timeout);
}

}  // namespace lockcheck
