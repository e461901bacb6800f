// The transactions family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, handler and a container's subcommands, as Redis 7.0's command table has them.
#include "redis/commands/transactions/transactions_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_transactions_commands(CommandTable& table) {
  table.add({
      {"discard", 1, kNoScript | kNoQueue | kAllowBusy, cmd::discard},
      {"exec", 1, kNoScript | kNoQueue, cmd::exec},
      {"multi", 1, kNoScript | kNoQueue | kAllowBusy, cmd::multi},
      {"unwatch", 1, kNoScript | kAllowBusy, cmd::unwatch},
      {"watch", -2, kNoScript | kNoQueue | kAllowBusy, cmd::watch},
  });
}

}  // namespace lockcheck::mock
