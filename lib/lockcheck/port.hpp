#pragma once
// The Port seam: send a Redis command to node i and await its reply.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lockcheck/reply.hpp"
#include "lockcheck/task.hpp"
#include "lockcheck/time.hpp"

namespace lockcheck {

enum class CallStatus {
  replied,   // the node answered (possibly with an error reply)
  not_sent,  // the command certainly did not run: no connection could be made
  unknown,   // the command was sent but no reply came (timeout, connection lost): it may have run
};

struct CallResult {
  CallStatus status = CallStatus::unknown;
  Reply reply;         // meaningful when status == replied
  std::string detail;  // why there is no reply, for messages

  bool replied() const { return status == CallStatus::replied; }
  static CallResult of(Reply reply) { return {CallStatus::replied, std::move(reply), {}}; }
  static CallResult failed(CallStatus status, std::string detail) { return {status, {}, std::move(detail)}; }
};

// The results of a fan-out settled so far, in input order; nullopt while a reply is still awaited.
using SettledResults = std::vector<std::optional<CallResult>>;
// Says whether the outcome is decided by the results so far (e.g. a quorum granted, or no quorum possible).
using DecidedPredicate = std::function<bool(const SettledResults&)>;

// The detail of a result whose reply fan_out_until stopped waiting for.
inline constexpr const char* kNotAwaited = "not awaited: the outcome was decided first";

struct NodeCommand {
  std::size_t node = 0;
  Command command;
};

class Port {
 public:
  virtual ~Port() = default;
  virtual std::size_t node_count() const = 0;
  virtual Task<CallResult> call(std::size_t node, Command command) = 0;
  // Changes whenever a later call to `node` may run on another connection than an earlier one: a reconnect,
  // or the node now reached at another server (a failover behind a fixed address, a cluster redirect).
  // Connection state (WATCH, MULTI, CLIENT SETNAME) lasts only while it stays the same. 0 from a port that
  // keeps one connection per node for good.
  virtual std::uint64_t connection_epoch(std::size_t node) const {
    (void)node;
    return 0;
  }
  // call(), but only on the connection of `epoch` (connection_epoch): if that connection is gone, nothing is
  // sent and the result is not_sent, never a new connection. What a transaction's MULTI, its write and its
  // EXEC need: a write sent on a new connection would run at once, outside the transaction and its WATCH.
  virtual Task<CallResult> call_on_connection(std::size_t node, std::uint64_t epoch, Command command);
  // Sends every command before awaiting any reply, so N nodes cost about one round trip.
  // Results keep the input order. The default awaits the calls concurrently with when_all.
  virtual Task<std::vector<CallResult>> fan_out(std::vector<NodeCommand> commands);
  // Like fan_out, but returns as soon as `decided` holds on the results so far (or all have settled): one
  // slow node then costs nothing once the others decided. Every command is still sent. Replies not awaited
  // come back as CallStatus::unknown with detail kNotAwaited (the command may have run, or may yet run).
  // `decided` must not throw and is not called after this returns. The default awaits the calls with
  // when_enough; the calls not awaited run on, owned by this port (stragglers()).
  virtual Task<std::vector<CallResult>> fan_out_until(std::vector<NodeCommand> commands, DecidedPredicate decided);

  // Pub/sub, for waiters that sleep until a release is announced (redisson-like) instead of polling.
  // subscribe() returns once `channel` on `node` is subscribed (on a connection of its own: a subscribed
  // RESP2 connection can run nothing else); the port stays subscribed, and messages published there from
  // then on queue up (the newest few) until await_message() takes one. await_message() replies with the
  // payload as a bulk string, or CallStatus::unknown when `timeout` passed first. The defaults answer
  // not_sent ("this port has no pub/sub"), and callers fall back to polling.
  virtual Task<CallResult> subscribe(std::size_t node, std::string channel);
  virtual Task<CallResult> await_message(std::size_t node, std::string channel, Micros timeout);
  // Shard channels (Redis 7.0's SSUBSCRIBE / SPUBLISH). True when subscribe() takes shard channels: on a
  // cluster a shard channel lives on the node serving its slot, and only an SPUBLISH there (in the same slot)
  // reaches its subscribers, so a lock announcing releases to this port's waiters SPUBLISHes on a channel in
  // its key's slot. Plain PUBLISH would be broadcast over the whole cluster bus.
  virtual bool shard_channels() const { return false; }
  // SSUBSCRIBE `channel` on `node`, as subscribe() does SUBSCRIBE; its messages (smessage) are taken with
  // await_message(). The default answers not_sent ("this port has no shard pub/sub").
  virtual Task<CallResult> subscribe_shard(std::size_t node, std::string channel);

 protected:
  // The calls the default fan_out_until stopped awaiting. They refer to this port, so it owns them; a port
  // whose pending calls can never end (a crashed simulated process) clears it.
  Stragglers& stragglers() { return stragglers_; }

 private:
  Stragglers stragglers_;
};

// How many undelivered messages a port keeps per subscribed channel; older ones are dropped (a waiter only
// needs to know that *a* release happened since it last looked).
inline constexpr std::size_t kMaxQueuedMessages = 16;

}  // namespace lockcheck
