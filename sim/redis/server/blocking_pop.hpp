#pragma once
// What every blocking command shares: the timeout, one try, then nil (a script, EXEC, or no transport to send a
// late reply) or the client parked on the node until a push serves it or the timeout passes.
#include <string>

#include "redis/server/blocked_clients.hpp"
#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

// A command that cannot block answers a null array; BLMOVE and BRPOPLPUSH (`moves`) in a script or EXEC a null
// bulk, as 7.0 does.
Reply pop_or_block(CommandContext& ctx, PopAttempt attempt, const std::string& timeout_seconds, bool moves = false);

// Redis announces a pop by what it did ("lpop", "zpopmin"), whatever command did it (LMPOP, BZMPOP): the
// keyspace's acting command reads `event` while this lives.
class AnnouncedAs {
 public:
  AnnouncedAs(Keyspace& keys, std::string_view event) : keys_(keys), saved_(keys.actor()) {
    keys.set_actor(Actor{saved_.client_id, event, saved_.script_sha});
  }
  ~AnnouncedAs() { keys_.set_actor(saved_); }
  AnnouncedAs(const AnnouncedAs&) = delete;
  AnnouncedAs& operator=(const AnnouncedAs&) = delete;

 private:
  Keyspace& keys_;
  Actor saved_;
};

}  // namespace lockcheck::mock
