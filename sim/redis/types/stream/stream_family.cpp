// The stream family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, handler and a container's subcommands, as Redis 7.0's command table has them.
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
  table.add({
      {"xack", -4, kW, cmd::xack},
      {"xadd", -5, kWO, cmd::xadd},
      {"xautoclaim", -6, kW, cmd::xautoclaim},
      {"xclaim", -6, kW, cmd::xclaim},
      {"xdel", -3, kW, cmd::xdel},
      {"xgroup", -2, kW, cmd::xgroup, kXgroupSubcommandSpecs},
      {"xinfo", -2, 0, cmd::xinfo, kXinfoSubcommandSpecs},
      {"xlen", 2, 0, cmd::xlen},
      {"xpending", -3, 0, cmd::xpending},
      {"xrange", -4, 0, cmd::xrange},
      {"xread", -4, 0, cmd::xread},
      {"xreadgroup", -7, kW, cmd::xreadgroup},
      {"xrevrange", -4, 0, cmd::xrevrange},
      {"xsetid", -3, kWO, cmd::xsetid},
      {"xtrim", -4, kW, cmd::xtrim},
  });
}

}  // namespace lockcheck::mock
