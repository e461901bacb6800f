// The string family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp) and their ACL access, handler, a container's subcommands and a group
// other than the family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/types/string/string_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_string_commands(CommandTable& table) {
  table.add(CommandGroup::kString, {
      {"append", 3, kWO, kFirstKey, "W", cmd::append},
      {"bitcount", -2, 0, kFirstKey, "R", cmd::bitcount, CommandGroup::kBitmap},
      {"bitop", -4, kWO, key_range(2, -1, 1), "W R", cmd::bitop, CommandGroup::kBitmap},
      {"bitpos", -3, 0, kFirstKey, "R", cmd::bitpos, CommandGroup::kBitmap},
      {"decr", 2, kWO, kFirstKey, "RW", cmd::decr},
      {"decrby", 3, kWO, kFirstKey, "RW", cmd::decrby},
      {"get", 2, 0, kFirstKey, "R", cmd::get},
      {"getbit", 3, 0, kFirstKey, "R", cmd::getbit, CommandGroup::kBitmap},
      {"getdel", 2, kW, kFirstKey, "RW", cmd::getdel},
      {"getex", -2, kW, kFirstKey, "RW", cmd::getex},
      {"getrange", 4, 0, kFirstKey, "R", cmd::getrange},
      {"getset", 3, kWO, kFirstKey, "RW", cmd::getset},
      {"hincrbyfloat", 4, kWO, kFirstKey, "RW", cmd::hincrbyfloat, CommandGroup::kHash},
      {"incr", 2, kWO, kFirstKey, "RW", cmd::incr},
      {"incrby", 3, kWO, kFirstKey, "RW", cmd::incrby},
      {"incrbyfloat", 3, kWO, kFirstKey, "RW", cmd::incrbyfloat},
      {"lcs", -3, 0, kFirstTwoKeys, "R", cmd::lcs},
      {"psetex", 4, kWO, kFirstKey, "W", cmd::psetex},
      {"set", -3, kWO, kFirstKey, "RW", cmd::set},
      {"setbit", 4, kWO, kFirstKey, "RW", cmd::setbit, CommandGroup::kBitmap},
      {"setex", 4, kWO, kFirstKey, "W", cmd::setex},
      {"setnx", 3, kWO, kFirstKey, "W", cmd::setnx},
      {"setrange", 4, kWO, kFirstKey, "W", cmd::setrange},
      {"strlen", 2, 0, kFirstKey, "-", cmd::strlen},
      {"substr", 4, 0, kFirstKey, "R", cmd::getrange},
  });
}

}  // namespace lockcheck::mock
