#pragma once
// The geo family: GEOADD ... GEOSEARCH/GEORADIUS (on sorted sets: GEOADD runs ZADD).
// Its handlers, and register_geo_commands, which adds their rows to a command table (geo_family.cpp).
#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

class CommandTable;

void register_geo_commands(CommandTable& table);

}  // namespace lockcheck::mock

namespace lockcheck::mock::cmd {

// commands_geo.cpp
Reply geoadd(CommandContext&);
Reply geodist(CommandContext&);
Reply geohash(CommandContext&);
Reply geopos(CommandContext&);
// commands_geo_search.cpp
Reply georadius(CommandContext&);
Reply georadius_ro(CommandContext&);
Reply georadiusbymember(CommandContext&);
Reply georadiusbymember_ro(CommandContext&);
Reply geosearch(CommandContext&);
Reply geosearchstore(CommandContext&);

}  // namespace lockcheck::mock::cmd
