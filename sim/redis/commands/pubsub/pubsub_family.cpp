// The pubsub family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, handler and a container's subcommands, as Redis 7.0's command table has them.
#include "redis/commands/pubsub/pubsub_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {
namespace {

// Redis 7.0.15's subcommands of PUBSUB (one the mock does not run still passes the check,
// then its handler answers as Redis does for an unsupported case).
constexpr SubcommandSpec kPubsubSubcommandSpecs[] = {
    {"channels", -2}, {"help", 2}, {"numpat", 2}, {"numsub", -2}, {"shardchannels", -2}, {"shardnumsub", -2},
};

}  // namespace

void register_pubsub_commands(CommandTable& table) {
  table.add({
      {"psubscribe", -2, kNoScript | kPubSub, cmd::psubscribe},
      {"publish", 3, 0, cmd::publish},
      {"pubsub", -2, 0, cmd::pubsub, kPubsubSubcommandSpecs},
      {"punsubscribe", -1, kNoScript | kPubSub, cmd::punsubscribe},
      {"spublish", 3, 0, cmd::spublish},
      {"ssubscribe", -2, kNoScript | kPubSub, cmd::ssubscribe},
      {"subscribe", -2, kNoScript | kPubSub, cmd::subscribe},
      {"sunsubscribe", -1, kNoScript | kPubSub, cmd::sunsubscribe},
      {"unsubscribe", -1, kNoScript | kPubSub, cmd::unsubscribe},
  });
}

}  // namespace lockcheck::mock
