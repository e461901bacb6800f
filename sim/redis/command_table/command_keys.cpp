#include "redis/command_table/command_keys.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {

KeyPositions key_positions(std::string_view name) {
  // Keyless commands (COMMAND INFO: first key 0). A command missing here reads argument 1 as its key, which
  // COMMAND INFO and the ACL key checks then get wrong: CommandInfoDifferential names it against redis-server.
  constexpr std::array kNoKeys = std::to_array<std::string_view>(
      {"acl", "asking", "auth", "client", "cluster", "command", "config", "dbsize", "echo", "eval", "eval_ro",
       "evalsha", "evalsha_ro", "fcall", "fcall_ro", "flushall", "flushdb", "function", "hello", "info", "ping",
       "publish", "psubscribe", "pubsub", "punsubscribe", "quit", "randomkey", "readonly", "readwrite", "reset",
       "script", "select", "subscribe", "swapdb", "time", "unsubscribe", "wait", "multi", "exec", "discard",
       "unwatch", "keys", "scan", "lastsave", "save", "bgsave", "role", "debug", "shutdown", "monitor", "sintercard",
       "object", "memory", "zunion", "zinter", "zdiff", "zintercard", "lmpop", "blmpop", "zmpop", "bzmpop", "xread",
       "xreadgroup", "xgroup", "xinfo"});
  constexpr std::array kAllKeys = std::to_array<std::string_view>(
      {"del", "exists", "unlink", "touch", "mget", "watch", "sinter", "sunion", "sdiff", "pfcount", "sinterstore",
       "sunionstore", "sdiffstore", "ssubscribe", "sunsubscribe"});
  if (std::find(kNoKeys.begin(), kNoKeys.end(), name) != kNoKeys.end()) return {0, 0, 0};
  if (std::find(kAllKeys.begin(), kAllKeys.end(), name) != kAllKeys.end()) return {1, -1, 1};
  if (name == "mset" || name == "msetnx") return {1, -1, 2};
  if (name == "rename" || name == "renamenx" || name == "copy" || name == "lmove" || name == "rpoplpush" ||
      name == "smove" || name == "blmove" || name == "brpoplpush" || name == "zrangestore" || name == "geosearchstore") {
    return {1, 2, 1};
  }
  if (name == "bitop") return {2, -1, 1};
  if (name == "lcs") return {1, 2, 1};
  if (name == "blpop" || name == "brpop" || name == "bzpopmin" || name == "bzpopmax") return {1, -2, 1};
  return {};
}

std::optional<std::vector<std::size_t>> command_key_indexes(const Command& args) {
  const std::string name = to_lower(args[0]);
  const bool by_numkeys = name.starts_with("eval") || name.starts_with("fcall");
  // Commands whose keys follow a numkeys argument (ZUNIONSTORE and friends: after their destination key).
  const bool numkeys_first = name == "sintercard" || name == "zintercard" || name == "zunion" || name == "zinter" ||
                             name == "zdiff" || name == "lmpop" || name == "zmpop";
  const bool numkeys_second = name == "blmpop" || name == "bzmpop" || name == "zunionstore" ||
                              name == "zinterstore" || name == "zdiffstore";
  std::vector<std::size_t> indexes;
  if (by_numkeys || numkeys_first || numkeys_second) {
    const std::size_t numkeys_at = numkeys_first ? 1 : 2;
    if (name.ends_with("store")) indexes.push_back(1);
    if (args.size() <= numkeys_at) return std::nullopt;
    auto numkeys = parse_int64(args[numkeys_at]);
    const auto available = static_cast<std::int64_t>(args.size() - numkeys_at - 1);
    if (!numkeys || *numkeys < 0 || *numkeys > available) return std::nullopt;
    for (std::int64_t i = 0; i < *numkeys; ++i) indexes.push_back(numkeys_at + 1 + static_cast<std::size_t>(i));
    return indexes;
  }
  const KeyPositions positions = key_positions(name);
  if (positions.first == 0) return indexes;
  const auto argc = static_cast<std::int64_t>(args.size());
  const std::int64_t last = positions.last < 0 ? argc + positions.last : positions.last;
  for (std::int64_t at = positions.first; at <= last && at < argc; at += positions.step) {
    indexes.push_back(static_cast<std::size_t>(at));
  }
  return indexes;
}

}  // namespace lockcheck::mock
