// The pubsub family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp) and their ACL access, handler, a container's subcommands and a group
// other than the family's (command_group.hpp), as Redis 7.0's command table has them.
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
  table.add(CommandGroup::kPubsub, {
      {"psubscribe", -2, kNoScript | kPubSub, kNoKeys, "", cmd::psubscribe},
      {"publish", 3, 0, kNoKeys, "", cmd::publish},
      {"pubsub", -2, 0, kNoKeys, "", cmd::pubsub, kPubsubSubcommandSpecs},
      {"punsubscribe", -1, kNoScript | kPubSub, kNoKeys, "", cmd::punsubscribe},
      {"spublish", 3, 0, kFirstKey, "", cmd::spublish},
      {"ssubscribe", -2, kNoScript | kPubSub, kEveryKey, "", cmd::ssubscribe},
      {"subscribe", -2, kNoScript | kPubSub, kNoKeys, "", cmd::subscribe},
      {"sunsubscribe", -1, kNoScript | kPubSub, kEveryKey, "", cmd::sunsubscribe},
      {"unsubscribe", -1, kNoScript | kPubSub, kNoKeys, "", cmd::unsubscribe},
  });
}

}  // namespace lockcheck::mock
