#pragma once
// Clients blocked in BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BZPOPMIN, BZPOPMAX, BLMPOP, BZMPOP, XREAD and XREADGROUP
// (with BLOCK): the command to retry, the deadline on the node clock, and first-come-first-served order (as
// Redis serves a key's blocked clients).
#include <cstdint>
#include <list>
#include <optional>
#include <string_view>

#include "lockcheck/reply.hpp"
#include "redis/server/session.hpp"

namespace lockcheck::mock {

struct CommandContext;

// One try at a blocking command's pop: the reply, or nullopt while every key is empty or missing.
using PopAttempt = std::optional<Reply> (*)(CommandContext&);

struct BlockedCall {
  Session* session;
  Command command;
  std::string_view name;  // the command table's name, for the keyspace events of the eventual pop
  PopAttempt attempt;
  std::optional<std::int64_t> deadline_ms;  // none: block forever (timeout 0)
};

class BlockedClients {
 public:
  void add(BlockedCall call) { calls_.push_back(std::move(call)); }
  void remove(std::int64_t client_id) {
    calls_.remove_if([client_id](const BlockedCall& call) { return call.session->client_id == client_id; });
  }
  bool empty() const { return calls_.empty(); }
  // INFO clients: blocked_clients (each parked client once) and clients_in_timeout_table (those with a timeout).
  std::size_t count() const { return calls_.size(); }
  std::size_t with_deadline() const {
    std::size_t n = 0;
    for (const BlockedCall& call : calls_) n += call.deadline_ms ? 1 : 0;
    return n;
  }
  std::list<BlockedCall>& calls() { return calls_; }
  std::optional<std::int64_t> next_deadline_ms() const {
    std::optional<std::int64_t> next;
    for (const BlockedCall& call : calls_) {
      if (call.deadline_ms && (!next || *call.deadline_ms < *next)) next = call.deadline_ms;
    }
    return next;
  }

 private:
  std::list<BlockedCall> calls_;  // in blocking order
};

}  // namespace lockcheck::mock
