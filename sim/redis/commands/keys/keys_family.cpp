// The keys family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp), handler, a container's subcommands and a group other than the
// family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/commands/keys/keys_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {
namespace {

// Redis 7.0.15's subcommands of MEMORY and OBJECT (one the mock does not run still passes the check,
// then its handler answers as Redis does for an unsupported case).
constexpr SubcommandSpec kMemorySubcommandSpecs[] = {
    {"doctor", 2}, {"help", 2}, {"malloc-stats", 2}, {"purge", 2}, {"stats", 2}, {"usage", -3},
};
constexpr SubcommandSpec kObjectSubcommandSpecs[] = {
    {"encoding", 3}, {"freq", 3}, {"help", 2}, {"idletime", 3}, {"refcount", 3},
};

}  // namespace

void register_keys_commands(CommandTable& table) {
  table.add(CommandGroup::kGeneric, {
      {"copy", -3, kWO, kFirstTwoKeys, cmd::copy},
      {"dbsize", 1, 0, kNoKeys, cmd::dbsize, CommandGroup::kServer},
      {"del", -2, kW, kEveryKey, cmd::del},
      {"exists", -2, 0, kEveryKey, cmd::exists},
      {"expire", -3, kW, kFirstKey, cmd::expire},
      {"expireat", -3, kW, kFirstKey, cmd::expireat},
      {"expiretime", 2, 0, kFirstKey, cmd::expiretime},
      {"flushall", -1, kW, kNoKeys, cmd::flushall, CommandGroup::kServer},
      {"flushdb", -1, kW, kNoKeys, cmd::flushdb, CommandGroup::kServer},
      {"hscan", -3, 0, kFirstKey, cmd::hscan, CommandGroup::kHash},
      {"keys", 2, 0, kNoKeys, cmd::keys},
      {"memory", -2, 0, kNoKeys, cmd::memory, kMemorySubcommandSpecs, CommandGroup::kServer},
      {"mget", -2, 0, kEveryKey, cmd::mget, CommandGroup::kString},
      {"move", 3, kW, kFirstKey, cmd::move},
      {"mset", -3, kWO, kKeyValuePairs, cmd::mset, CommandGroup::kString},
      {"msetnx", -3, kWO, kKeyValuePairs, cmd::msetnx, CommandGroup::kString},
      {"object", -2, 0, kNoKeys, cmd::object, kObjectSubcommandSpecs},
      {"persist", 2, kW, kFirstKey, cmd::persist},
      {"pexpire", -3, kW, kFirstKey, cmd::pexpire},
      {"pexpireat", -3, kW, kFirstKey, cmd::pexpireat},
      {"pexpiretime", 2, 0, kFirstKey, cmd::pexpiretime},
      {"pttl", 2, 0, kFirstKey, cmd::pttl},
      {"randomkey", 1, 0, kNoKeys, cmd::randomkey},
      {"rename", 3, kW, kFirstTwoKeys, cmd::rename},
      {"renamenx", 3, kW, kFirstTwoKeys, cmd::renamenx},
      {"scan", -2, 0, kNoKeys, cmd::scan},
      {"select", 2, 0, kNoKeys, cmd::select, CommandGroup::kConnection},
      {"sort", -2, kWO, kFirstKey, cmd::sort},
      {"sort_ro", -2, 0, kFirstKey, cmd::sort_ro},
      {"swapdb", 3, kW, kNoKeys, cmd::swapdb, CommandGroup::kServer},
      {"touch", -2, 0, kEveryKey, cmd::touch},
      {"ttl", 2, 0, kFirstKey, cmd::ttl},
      {"type", 2, 0, kFirstKey, cmd::type},
      {"unlink", -2, kW, kEveryKey, cmd::del},
  });
}

}  // namespace lockcheck::mock
