// The string family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp), handler, a container's subcommands and a group other than the
// family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/types/string/string_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_string_commands(CommandTable& table) {
  table.add(CommandGroup::kString, {
      {"append", 3, kWO, kFirstKey, cmd::append},
      {"bitcount", -2, 0, kFirstKey, cmd::bitcount, CommandGroup::kBitmap},
      {"bitop", -4, kWO, key_range(2, -1, 1), cmd::bitop, CommandGroup::kBitmap},
      {"bitpos", -3, 0, kFirstKey, cmd::bitpos, CommandGroup::kBitmap},
      {"decr", 2, kWO, kFirstKey, cmd::decr},
      {"decrby", 3, kWO, kFirstKey, cmd::decrby},
      {"get", 2, 0, kFirstKey, cmd::get},
      {"getbit", 3, 0, kFirstKey, cmd::getbit, CommandGroup::kBitmap},
      {"getdel", 2, kW, kFirstKey, cmd::getdel},
      {"getex", -2, kW, kFirstKey, cmd::getex},
      {"getrange", 4, 0, kFirstKey, cmd::getrange},
      {"getset", 3, kWO, kFirstKey, cmd::getset},
      {"hincrbyfloat", 4, kWO, kFirstKey, cmd::hincrbyfloat, CommandGroup::kHash},
      {"incr", 2, kWO, kFirstKey, cmd::incr},
      {"incrby", 3, kWO, kFirstKey, cmd::incrby},
      {"incrbyfloat", 3, kWO, kFirstKey, cmd::incrbyfloat},
      {"lcs", -3, 0, kFirstTwoKeys, cmd::lcs},
      {"psetex", 4, kWO, kFirstKey, cmd::psetex},
      {"set", -3, kWO, kFirstKey, cmd::set},
      {"setbit", 4, kWO, kFirstKey, cmd::setbit, CommandGroup::kBitmap},
      {"setex", 4, kWO, kFirstKey, cmd::setex},
      {"setnx", 3, kWO, kFirstKey, cmd::setnx},
      {"setrange", 4, kWO, kFirstKey, cmd::setrange},
      {"strlen", 2, 0, kFirstKey, cmd::strlen},
      {"substr", 4, 0, kFirstKey, cmd::getrange},
  });
}

}  // namespace lockcheck::mock
