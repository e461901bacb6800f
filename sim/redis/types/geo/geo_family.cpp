// The geo family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp) and their ACL access, handler, a container's subcommands and a group
// other than the family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/types/geo/geo_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_geo_commands(CommandTable& table) {
  table.add(CommandGroup::kGeo, {
      {"geoadd", -5, kWO, kFirstKey, "W", cmd::geoadd},
      {"geodist", -4, 0, kFirstKey, "R", cmd::geodist},
      {"geohash", -2, 0, kFirstKey, "R", cmd::geohash},
      {"geopos", -2, 0, kFirstKey, "R", cmd::geopos},
      {"georadius", -6, kWO, movable_keys(kFirstKey), "R W W", cmd::georadius},
      {"georadius_ro", -6, 0, kFirstKey, "R", cmd::georadius_ro},
      {"georadiusbymember", -5, kWO, movable_keys(kFirstKey), "R W W", cmd::georadiusbymember},
      {"georadiusbymember_ro", -5, 0, kFirstKey, "R", cmd::georadiusbymember_ro},
      {"geosearch", -7, 0, kFirstKey, "R", cmd::geosearch},
      {"geosearchstore", -8, kWO, kFirstTwoKeys, "W R", cmd::geosearchstore},
  });
}

}  // namespace lockcheck::mock
