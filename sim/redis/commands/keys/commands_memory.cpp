// MEMORY USAGE and HELP with Redis 7.0.15's arguments, errors and nil for a missing key; the figure is the
// mock's estimate (memory_estimate.hpp). DOCTOR, MALLOC-STATS, PURGE and STATS describe an allocator the
// mock does not have: they answer as not supported.
#include <string>

#include "redis/commands/keys/keys_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/keyspace/memory_estimate.hpp"
#include "redis/util/numbers.hpp"
#include "redis/command_table/subcommands.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {

Reply memory(CommandContext& ctx) {
  const std::string sub = to_lower(ctx.args[1]);
  if (sub == "help") {
    return subcommand_help("MEMORY", {"DOCTOR",
                                      "    Return memory problems reports.",
                                      "MALLOC-STATS",
                                      "    Return internal statistics report from the memory allocator.",
                                      "PURGE",
                                      "    Attempt to purge dirty pages for reclamation by the allocator.",
                                      "STATS",
                                      "    Return information about the memory usage of the server.",
                                      "USAGE <key> [SAMPLES <count>]",
                                      "    Return memory in bytes used by <key> and its value. Nested values are",
                                      "    sampled up to <count> times (default: 5, 0 means sample all)."});
  }
  if (sub != "usage") return Reply::error("ERR MEMORY " + to_upper(sub) + " is not supported by the lockcheck mock");
  for (std::size_t i = 3; i < ctx.args.size(); i += 2) {
    if (!iequals(ctx.args[i], "samples") || i + 1 >= ctx.args.size()) return err::syntax();
    const auto samples = parse_int64(ctx.args[i + 1]);
    if (!samples) return err::not_integer();
    if (*samples < 0) return err::syntax();
  }
  // Redis reads the table directly: a key past its deadline but not yet reclaimed still counts.
  const auto& entries = ctx.keys.current().entries;
  const auto it = entries.find(ctx.args[2]);
  if (it == entries.end()) return Reply::nil();
  return Reply::integer_reply(key_memory_bytes(it->first, it->second.value));
}

}  // namespace lockcheck::mock::cmd
