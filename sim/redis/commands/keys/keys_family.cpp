// The keys family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, handler and a container's subcommands, as Redis 7.0's command table has them.
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
  table.add({
      {"copy", -3, kWO, cmd::copy},
      {"dbsize", 1, 0, cmd::dbsize},
      {"del", -2, kW, cmd::del},
      {"exists", -2, 0, cmd::exists},
      {"expire", -3, kW, cmd::expire},
      {"expireat", -3, kW, cmd::expireat},
      {"expiretime", 2, 0, cmd::expiretime},
      {"flushall", -1, kW, cmd::flushall},
      {"flushdb", -1, kW, cmd::flushdb},
      {"hscan", -3, 0, cmd::hscan},
      {"keys", 2, 0, cmd::keys},
      {"memory", -2, 0, cmd::memory, kMemorySubcommandSpecs},
      {"mget", -2, 0, cmd::mget},
      {"move", 3, kW, cmd::move},
      {"mset", -3, kWO, cmd::mset},
      {"msetnx", -3, kWO, cmd::msetnx},
      {"object", -2, 0, cmd::object, kObjectSubcommandSpecs},
      {"persist", 2, kW, cmd::persist},
      {"pexpire", -3, kW, cmd::pexpire},
      {"pexpireat", -3, kW, cmd::pexpireat},
      {"pexpiretime", 2, 0, cmd::pexpiretime},
      {"pttl", 2, 0, cmd::pttl},
      {"randomkey", 1, 0, cmd::randomkey},
      {"rename", 3, kW, cmd::rename},
      {"renamenx", 3, kW, cmd::renamenx},
      {"scan", -2, 0, cmd::scan},
      {"select", 2, 0, cmd::select},
      {"sort", -2, kWO, cmd::sort},
      {"sort_ro", -2, 0, cmd::sort_ro},
      {"swapdb", 3, kW, cmd::swapdb},
      {"touch", -2, 0, cmd::touch},
      {"ttl", 2, 0, cmd::ttl},
      {"type", 2, 0, cmd::type},
      {"unlink", -2, kW, cmd::del},
  });
}

}  // namespace lockcheck::mock
