// The transactions family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp) and their ACL access, handler, a container's subcommands and a group
// other than the family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/commands/transactions/transactions_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_transactions_commands(CommandTable& table) {
  table.add(CommandGroup::kTransactions, {
      {"discard", 1, kNoScript | kNoQueue | kAllowBusy, kNoKeys, "", cmd::discard},
      {"exec", 1, kNoScript | kNoQueue, kNoKeys, "", cmd::exec},
      {"multi", 1, kNoScript | kNoQueue | kAllowBusy, kNoKeys, "", cmd::multi},
      {"unwatch", 1, kNoScript | kAllowBusy, kNoKeys, "", cmd::unwatch},
      {"watch", -2, kNoScript | kNoQueue | kAllowBusy, kEveryKey, "-", cmd::watch},
  });
}

}  // namespace lockcheck::mock
