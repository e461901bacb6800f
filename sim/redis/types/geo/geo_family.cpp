// The geo family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp), handler, a container's subcommands and a group other than the
// family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/types/geo/geo_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_geo_commands(CommandTable& table) {
  table.add(CommandGroup::kGeo, {
      {"geoadd", -5, kWO, kFirstKey, cmd::geoadd},
      {"geodist", -4, 0, kFirstKey, cmd::geodist},
      {"geohash", -2, 0, kFirstKey, cmd::geohash},
      {"geopos", -2, 0, kFirstKey, cmd::geopos},
      {"georadius", -6, kWO, movable_keys(kFirstKey), cmd::georadius},
      {"georadius_ro", -6, 0, kFirstKey, cmd::georadius_ro},
      {"georadiusbymember", -5, kWO, movable_keys(kFirstKey), cmd::georadiusbymember},
      {"georadiusbymember_ro", -5, 0, kFirstKey, cmd::georadiusbymember_ro},
      {"geosearch", -7, 0, kFirstKey, cmd::geosearch},
      {"geosearchstore", -8, kWO, kFirstTwoKeys, cmd::geosearchstore},
  });
}

}  // namespace lockcheck::mock
