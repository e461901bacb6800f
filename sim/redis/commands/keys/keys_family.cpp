// The keys family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp) and their ACL access, handler, a container's subcommands and a group
// other than the family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/commands/keys/keys_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {
namespace {

// Redis 7.0.15's subcommands of MEMORY and OBJECT (one the mock does not run still passes the check,
// then its handler answers as Redis does for an unsupported case); those naming a key, where and with what access.
constexpr SubcommandSpec kMemorySubcommandSpecs[] = {
    {"doctor", 2}, {"help", 2}, {"malloc-stats", 2}, {"purge", 2}, {"stats", 2}, {"usage", -3, 2, "-"},
};
constexpr SubcommandSpec kObjectSubcommandSpecs[] = {
    {"encoding", 3, 2, "-"}, {"freq", 3, 2, "-"}, {"help", 2}, {"idletime", 3, 2, "-"}, {"refcount", 3, 2, "-"},
};

}  // namespace

void register_keys_commands(CommandTable& table) {
  table.add(CommandGroup::kGeneric, {
      {"copy", -3, kWO, kFirstTwoKeys, "R W", cmd::copy},
      {"dbsize", 1, 0, kNoKeys, "", cmd::dbsize, CommandGroup::kServer},
      {"del", -2, kW, kEveryKey, "W", cmd::del},
      {"exists", -2, 0, kEveryKey, "-", cmd::exists},
      {"expire", -3, kW, kFirstKey, "W", cmd::expire},
      {"expireat", -3, kW, kFirstKey, "W", cmd::expireat},
      {"expiretime", 2, 0, kFirstKey, "R", cmd::expiretime},
      {"flushall", -1, kW, kNoKeys, "", cmd::flushall, CommandGroup::kServer},
      {"flushdb", -1, kW, kNoKeys, "", cmd::flushdb, CommandGroup::kServer},
      {"hscan", -3, 0, kFirstKey, "R", cmd::hscan, CommandGroup::kHash},
      {"keys", 2, 0, kNoKeys, "", cmd::keys},
      {"memory", -2, 0, kNoKeys, "", cmd::memory, kMemorySubcommandSpecs, CommandGroup::kServer},
      {"mget", -2, 0, kEveryKey, "R", cmd::mget, CommandGroup::kString},
      {"move", 3, kW, kFirstKey, "RW", cmd::move},
      {"mset", -3, kWO, kKeyValuePairs, "W", cmd::mset, CommandGroup::kString},
      {"msetnx", -3, kWO, kKeyValuePairs, "W", cmd::msetnx, CommandGroup::kString},
      {"object", -2, 0, kNoKeys, "", cmd::object, kObjectSubcommandSpecs},
      {"persist", 2, kW, kFirstKey, "W", cmd::persist},
      {"pexpire", -3, kW, kFirstKey, "W", cmd::pexpire},
      {"pexpireat", -3, kW, kFirstKey, "W", cmd::pexpireat},
      {"pexpiretime", 2, 0, kFirstKey, "R", cmd::pexpiretime},
      {"pttl", 2, 0, kFirstKey, "R", cmd::pttl},
      {"randomkey", 1, 0, kNoKeys, "", cmd::randomkey},
      {"rename", 3, kW, kFirstTwoKeys, "RW W", cmd::rename},
      {"renamenx", 3, kW, kFirstTwoKeys, "RW W", cmd::renamenx},
      {"scan", -2, 0, kNoKeys, "", cmd::scan},
      {"select", 2, 0, kNoKeys, "", cmd::select, CommandGroup::kConnection},
      {"sort", -2, kWO, kFirstKey, "R R W", cmd::sort},
      {"sort_ro", -2, 0, kFirstKey, "R R", cmd::sort_ro},
      {"swapdb", 3, kW, kNoKeys, "", cmd::swapdb, CommandGroup::kServer},
      {"touch", -2, 0, kEveryKey, "-", cmd::touch},
      {"ttl", 2, 0, kFirstKey, "R", cmd::ttl},
      {"type", 2, 0, kFirstKey, "-", cmd::type},
      {"unlink", -2, kW, kEveryKey, "W", cmd::del},
  });
}

}  // namespace lockcheck::mock
