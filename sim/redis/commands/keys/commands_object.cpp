// OBJECT ENCODING | REFCOUNT | IDLETIME | FREQ | HELP, with Redis 7.0.15's replies and errors. Lookups do not
// count as an access (Redis's LOOKUP_NOTOUCH), so asking does not change the idle time it reports.
#include <string>

#include "redis/commands/keys/keys_family.hpp"
#include "redis/server/node.hpp"
#include "redis/util/numbers.hpp"
#include "redis/command_table/subcommands.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

// Redis shares one object per integer 0..9999 unless an LRU or LFU policy needs per-key access data.
constexpr std::int64_t kSharedIntegers = 10000;
constexpr std::int64_t kSharedRefcount = 2147483647;  // INT_MAX marks a shared object

bool lfu_policy(Node& node) { return node.config().value("maxmemory-policy").find("lfu") != std::string::npos; }

bool shares_integers(Node& node) {
  const std::string& policy = node.config().value("maxmemory-policy");
  const bool per_key_access = policy.find("lru") != std::string::npos || policy.find("lfu") != std::string::npos;
  return node.config().value("maxmemory") == "0" || !per_key_access;
}

Reply help() {
  return subcommand_help("OBJECT", {"ENCODING <key>",
                                    "    Return the kind of internal representation used in order to store the value",
                                    "    associated with a <key>.",
                                    "FREQ <key>",
                                    "    Return the access frequency index of the <key>. The returned integer is",
                                    "    proportional to the logarithm of the recent access frequency of the key.",
                                    "IDLETIME <key>",
                                    "    Return the idle time of the <key>, that is the approximated number of",
                                    "    seconds elapsed since the last access to the key.",
                                    "REFCOUNT <key>",
                                    "    Return the number of references of the value associated with the specified",
                                    "    <key>."});
}

Encoding encoding_of(CommandContext& ctx, const Entry& entry) {
  if (entry.encoding != Encoding::unsettled) return entry.encoding;
  return natural_encoding(entry.value, ctx.node.encoding_limits());
}

}  // namespace

Reply object(CommandContext& ctx) {
  const std::string sub = to_lower(ctx.args[1]);
  if (sub == "help") return help();  // the subcommand table checked every arity
  Entry* entry = ctx.keys.peek(ctx.args[2]);
  if (entry == nullptr) return Reply::nil();
  if (sub == "encoding") return Reply::bulk(std::string(encoding_name(encoding_of(ctx, *entry))));
  if (sub == "refcount") {
    const std::string* text = std::get_if<std::string>(&entry->value);
    const auto number = text != nullptr && encoding_of(ctx, *entry) == Encoding::int_ ? parse_int64(*text) : std::nullopt;
    const bool shared = number && *number >= 0 && *number < kSharedIntegers && shares_integers(ctx.node);
    return Reply::integer_reply(shared ? kSharedRefcount : 1);
  }
  // Redis's LRU clock ticks in seconds; the idle time is the difference of two readings of it.
  const std::int64_t idle_s = ctx.keys.now_ms() / 1000 - entry->last_access_ms / 1000;
  if (sub == "idletime") {
    if (lfu_policy(ctx.node)) {
      return Reply::error("ERR An LFU maxmemory policy is selected, idle time not tracked. Please note that when "
                          "switching between policies at runtime LRU and LFU data will take some time to adjust.");
    }
    return Reply::integer_reply(idle_s);
  }
  // FREQ (the only subcommand left after the table's check).
  if (!lfu_policy(ctx.node)) {
    return Reply::error("ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note "
                        "that when switching between policies at runtime LRU and LFU data will take some time to "
                        "adjust.");
  }
  return Reply::integer_reply(ctx.keys.lfu_frequency(*entry));
}

}  // namespace lockcheck::mock::cmd
