#pragma once
// COMMAND DOCS's group of a command, part of its row (command.hpp): a family's add() gives its rows' group once,
// a row of another group says so itself. COMMAND INFO derives an ACL category from it for a command 7.0.15 lacks.
#include <cstdint>
#include <string_view>

namespace lockcheck::mock {

enum class CommandGroup : std::uint8_t {
  kOfFamily,  // a row's default: the group its family's CommandTable::add gives
  kBitmap, kCluster, kConnection, kGeneric, kGeo, kHash, kList, kPubsub, kScripting, kServer, kSet, kSortedSet,
  kStream, kString, kTransactions,
};

// Redis 7.0.15's spelling ("sorted-set"); empty for kOfFamily, which no row keeps once added.
constexpr std::string_view group_name(CommandGroup group) {
  switch (group) {
    case CommandGroup::kOfFamily: return "";
    case CommandGroup::kBitmap: return "bitmap";
    case CommandGroup::kCluster: return "cluster";
    case CommandGroup::kConnection: return "connection";
    case CommandGroup::kGeneric: return "generic";
    case CommandGroup::kGeo: return "geo";
    case CommandGroup::kHash: return "hash";
    case CommandGroup::kList: return "list";
    case CommandGroup::kPubsub: return "pubsub";
    case CommandGroup::kScripting: return "scripting";
    case CommandGroup::kServer: return "server";
    case CommandGroup::kSet: return "set";
    case CommandGroup::kSortedSet: return "sorted-set";
    case CommandGroup::kStream: return "stream";
    case CommandGroup::kString: return "string";
    case CommandGroup::kTransactions: return "transactions";
  }
  return "";
}

}  // namespace lockcheck::mock
