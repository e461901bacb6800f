// The string family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, handler and a container's subcommands, as Redis 7.0's command table has them.
#include "redis/types/string/string_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_string_commands(CommandTable& table) {
  table.add({
      {"append", 3, kWO, cmd::append},
      {"bitcount", -2, 0, cmd::bitcount},
      {"bitop", -4, kWO, cmd::bitop},
      {"bitpos", -3, 0, cmd::bitpos},
      {"decr", 2, kWO, cmd::decr},
      {"decrby", 3, kWO, cmd::decrby},
      {"get", 2, 0, cmd::get},
      {"getbit", 3, 0, cmd::getbit},
      {"getdel", 2, kW, cmd::getdel},
      {"getex", -2, kW, cmd::getex},
      {"getrange", 4, 0, cmd::getrange},
      {"getset", 3, kWO, cmd::getset},
      {"hincrbyfloat", 4, kWO, cmd::hincrbyfloat},
      {"incr", 2, kWO, cmd::incr},
      {"incrby", 3, kWO, cmd::incrby},
      {"incrbyfloat", 3, kWO, cmd::incrbyfloat},
      {"lcs", -3, 0, cmd::lcs},
      {"psetex", 4, kWO, cmd::psetex},
      {"set", -3, kWO, cmd::set},
      {"setbit", 4, kWO, cmd::setbit},
      {"setex", 4, kWO, cmd::setex},
      {"setnx", 3, kWO, cmd::setnx},
      {"setrange", 4, kWO, cmd::setrange},
      {"strlen", 2, 0, cmd::strlen},
      {"substr", 4, 0, cmd::getrange},
  });
}

}  // namespace lockcheck::mock
