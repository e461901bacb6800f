// Node's side of blocking pops: parking a client, serving it when a push makes its key non-empty, and
// answering nil when its timeout passes on the node clock. A blocked client never holds up the others: the
// node keeps serving every connection, and the parked command is retried after each command that ran.
#include "redis/command_table/command.hpp"
#include "lockcheck/reply.hpp"
#include "redis/server/node.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {

bool Node::can_block(const Session& session, bool in_script) const {
  return !in_script && !session.running_exec && unblock_sink_ != nullptr;
}

void Node::block(Session& session, const Command& command, PopAttempt attempt, std::optional<std::int64_t> deadline_ms) {
  session.blocked = true;
  blocked_.add(BlockedCall{&session, command, keyspace_.actor().command, attempt, deadline_ms});
}

void Node::answer_blocked(BlockedCall& call, Reply reply) {
  call.session->blocked = false;
  // A late error (XREADGROUP's NOGROUP/UNBLOCKED, CLIENT UNBLOCK ... ERROR) counts as the command's, as Redis's
  // updateStatsOnUnblock does.
  if (reply.kind == Reply::Kind::error) count_error(reply, Outcome{find_command(call.name), true}, false);
  if (call.session->resp != 3) to_resp2(reply);
  unblock_sink_(call.session->client_id, reply);
}

namespace {

// Whether a parked BLMOVE/BRPOPLPUSH's source holds a list (so a WRONGTYPE came from its destination).
bool moves_from_a_list(Keyspace& keys, const Command& command) {
  if (command.size() < 2) return false;
  const std::string name = to_lower(command[0]);
  if (name != "blmove" && name != "brpoplpush") return false;
  const Entry* source = keys.peek(command[1]);
  return source != nullptr && std::holds_alternative<List>(source->value);
}

}  // namespace

void Node::serve_blocked() {
  auto source_is_list = [this](const BlockedCall& call) { return moves_from_a_list(keyspace_, call.command); };
  if (blocked_.empty() || depth_ > 0) return;
  // A served BLMOVE may fill another client's key, so repeat while someone was served; each pass serves at
  // least one call or ends, so the passes are bounded by the number of blocked calls.
  for (bool served = true; served && !blocked_.empty();) {
    served = false;
    auto& calls = blocked_.calls();
    for (auto it = calls.begin(); it != calls.end();) {
      keyspace_.begin(options_.clock(), Actor{it->session->client_id, it->name, {}});
      CommandContext context{*this, keyspace_, *it->session, it->command, false, it->session->resp};
      ++depth_;
      std::optional<Reply> reply = it->attempt(context);
      --depth_;
      // Redis serves a parked client only from a key of its type: a source that is now another type (LPUSH,
      // DEL, SET in one EXEC) leaves it parked. A BLMOVE/BRPOPLPUSH whose source holds a list but whose
      // destination does not is answered WRONGTYPE, as Redis does.
      const bool wrong_type = reply && reply->kind == Reply::Kind::error && reply->text.starts_with("WRONGTYPE");
      if (!reply || (wrong_type && !source_is_list(*it))) {
        ++it;
        continue;
      }
      BlockedCall call = std::move(*it);
      it = calls.erase(it);
      answer_blocked(call, std::move(*reply));
      served = true;
    }
  }
}

void Node::expire_blocked() {
  if (blocked_.empty()) return;
  const std::int64_t now = options_.clock();
  auto& calls = blocked_.calls();
  for (auto it = calls.begin(); it != calls.end();) {
    if (!it->deadline_ms || *it->deadline_ms > now) {
      ++it;
      continue;
    }
    BlockedCall call = std::move(*it);
    it = calls.erase(it);
    answer_blocked(call, Reply::null_array());  // a timed-out BLPOP, BLMOVE, BZPOPMIN... alike
  }
}

bool Node::unblock(std::int64_t client_id, bool with_error) {
  auto& calls = blocked_.calls();
  for (auto it = calls.begin(); it != calls.end(); ++it) {
    if (it->session->client_id != client_id) continue;
    BlockedCall call = std::move(*it);
    calls.erase(it);
    answer_blocked(call, with_error ? Reply::error("UNBLOCKED client unblocked via CLIENT UNBLOCK") : Reply::null_array());
    return true;
  }
  return false;
}

}  // namespace lockcheck::mock
