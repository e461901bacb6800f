// The stream family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp) and their ACL access, handler, a container's subcommands and a group
// other than the family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/types/stream/stream_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {
namespace {

// Redis 7.0.15's subcommands of XGROUP and XINFO (one the mock does not run still passes the check,
// then its handler answers as Redis does for an unsupported case).
constexpr SubcommandSpec kXgroupSubcommandSpecs[] = {
    {"create", -5}, {"createconsumer", 5}, {"delconsumer", 5}, {"destroy", 4}, {"help", 2}, {"setid", -5},
};
constexpr SubcommandSpec kXinfoSubcommandSpecs[] = {
    {"consumers", 4}, {"groups", 3}, {"help", 2}, {"stream", -3},
};

}  // namespace

void register_stream_commands(CommandTable& table) {
  table.add(CommandGroup::kStream, {
      {"xack", -4, kW, kFirstKey, "W", cmd::xack},
      {"xadd", -5, kWO, kFirstKey, "W", cmd::xadd},
      {"xautoclaim", -6, kW, kFirstKey, "W", cmd::xautoclaim},
      {"xclaim", -6, kW, kFirstKey, "W", cmd::xclaim},
      {"xdel", -3, kW, kFirstKey, "W", cmd::xdel},
      {"xgroup", -2, kW, kNoKeys, "", cmd::xgroup, kXgroupSubcommandSpecs},
      {"xinfo", -2, 0, kNoKeys, "", cmd::xinfo, kXinfoSubcommandSpecs},
      {"xlen", 2, 0, kFirstKey, "-", cmd::xlen},
      {"xpending", -3, 0, kFirstKey, "R", cmd::xpending},
      {"xrange", -4, 0, kFirstKey, "R", cmd::xrange},
      {"xread", -4, 0, movable_keys(kNoKeys), "R", cmd::xread},
      {"xreadgroup", -7, kW, movable_keys(kNoKeys), "R", cmd::xreadgroup},
      {"xrevrange", -4, 0, kFirstKey, "R", cmd::xrevrange},
      {"xsetid", -3, kWO, kFirstKey, "W", cmd::xsetid},
      {"xtrim", -4, kW, kFirstKey, "W", cmd::xtrim},
  });
}

}  // namespace lockcheck::mock
