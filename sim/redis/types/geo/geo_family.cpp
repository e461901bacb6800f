// The geo family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, handler and a container's subcommands, as Redis 7.0's command table has them.
#include "redis/types/geo/geo_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_geo_commands(CommandTable& table) {
  table.add({
      {"geoadd", -5, kWO, cmd::geoadd},
      {"geodist", -4, 0, cmd::geodist},
      {"geohash", -2, 0, cmd::geohash},
      {"geopos", -2, 0, cmd::geopos},
      {"georadius", -6, kWO, cmd::georadius},
      {"georadius_ro", -6, 0, cmd::georadius_ro},
      {"georadiusbymember", -5, kWO, cmd::georadiusbymember},
      {"georadiusbymember_ro", -5, 0, cmd::georadiusbymember_ro},
      {"geosearch", -7, 0, cmd::geosearch},
      {"geosearchstore", -8, kWO, cmd::geosearchstore},
  });
}

}  // namespace lockcheck::mock
