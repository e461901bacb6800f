#include "redis/server/client_line.hpp"

#include <algorithm>

#include "redis/acl/acl_user.hpp"

namespace lockcheck::mock {

std::string client_line(const Session& session, std::int64_t now_ms) {
  std::string flags;
  if (session.monitor) flags += 'O';
  if (session.subscribed()) flags += 'P';
  if (session.no_evict) flags += 'e';
  if (flags.empty()) flags = "N";
  const std::int64_t age_s = session.connected_at_ms > 0 ? (now_ms - session.connected_at_ms) / 1000 : 0;
  return "id=" + std::to_string(session.client_id) + " addr=" + session.address + " laddr=" + session.local_address +
         " fd=8 name=" + session.name + " age=" + std::to_string(std::max<std::int64_t>(age_s, 0)) + " idle=0 flags=" +
         flags + " db=" + std::to_string(session.db) + " sub=" + std::to_string(session.channels.size()) +
         " psub=" + std::to_string(session.patterns.size()) + " ssub=" + std::to_string(session.shard_channels.size()) +
         " multi=-1 qbuf=0 qbuf-free=0 argv-mem=0 multi-mem=0 rbs=1024 rbp=0 obl=0 oll=0 omem=0"
         " tot-mem=1024 events=r cmd=" + std::string(session.last_command) +
         " user=" + (session.user ? session.user->name : std::string("default")) + " redir=-1 resp=" + std::to_string(session.resp) + "\n";
}

}  // namespace lockcheck::mock
