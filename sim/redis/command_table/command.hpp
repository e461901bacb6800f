#pragma once
// A command table's row: every fact about a command (name, arity, flags, where its keys are, its group, handler,
// a container's subcommands), so a command is added in one place: its family's table.
#include <cstdint>
#include <span>
#include <string_view>

#include "redis/command_table/command_group.hpp"
#include "redis/command_table/key_spec.hpp"
#include "redis/keyspace/keyspace.hpp"
#include "lockcheck/reply.hpp"

namespace lockcheck::mock {

class Node;      // server/node.hpp: the node a command runs on
struct Session;  // server/session.hpp: the connection it runs for

struct CommandContext {
  Node& node;
  Keyspace& keys;
  Session& session;
  const Command& args;
  bool in_script;
  int resp = 2;  // the protocol the reply is for: the connection's, or the script's redis.setresp()
};

using Handler = Reply (*)(CommandContext&);

enum CommandFlag : std::uint32_t {
  kWrite = 1u << 0,     // modifies data: refused in read-only scripts
  kDenyOom = 1u << 1,   // may grow memory: refused (or evicts first) at the key limit
  kNoScript = 1u << 2,  // not callable from scripts
  kPubSub = 1u << 3,    // allowed in RESP2 subscribed mode
  kNoQueue = 1u << 4,   // runs at once inside MULTI instead of being queued (EXEC, DISCARD, MULTI, WATCH, QUIT)
  kNoAuth = 1u << 5,    // runs before AUTH (AUTH, HELLO)
  kAllowBusy = 1u << 6, // answered while a script is busy (Redis's CMD_ALLOW_BUSY); others get -BUSY
};
// The two combinations most rows of the families' tables use.
inline constexpr std::uint32_t kW = kWrite;
inline constexpr std::uint32_t kWO = kWrite | kDenyOom;

// A container's subcommand (CONFIG GET, XINFO STREAM), as Redis 7.0.15's table has it: processCommand checks its
// existence and arity before NOAUTH and before MULTI queues it (subcommands.hpp).
struct SubcommandSpec {
  std::string_view name;  // lower case
  int arity;              // Redis's convention, counting the container: n exactly, -n at least n
  int key_at = 0;                 // > 0: the index of its key in the container's arguments (MEMORY USAGE key: 2)
  std::string_view key_access{};  // what it does to that key: one word of CommandSpec::key_access's
};

// Built by a constructor, not as an aggregate: a row that leaves out its keys or their access does not compile (an
// aggregate would quietly take a default, and COMMAND INFO and the ACL key checks would misread its keys).
struct CommandSpec {
  constexpr CommandSpec(std::string_view name, int arity, std::uint32_t flags, KeySpec keys,
                        std::string_view key_access, Handler handler, std::span<const SubcommandSpec> subcommands = {},
                        CommandGroup group = CommandGroup::kOfFamily)
      : name(name), arity(arity), flags(flags), keys(keys), key_access(key_access), handler(handler),
        subcommands(subcommands), group(group) {}
  // A row whose group is not its family's.
  constexpr CommandSpec(std::string_view name, int arity, std::uint32_t flags, KeySpec keys,
                        std::string_view key_access, Handler handler, CommandGroup group)
      : CommandSpec(name, arity, flags, keys, key_access, handler, {}, group) {}

  std::string_view name;  // lower case
  int arity;
  std::uint32_t flags;
  KeySpec keys;
  // What it does to its keys, as Redis 7.0.15's key specs say (the ACL's %R and %W, acl/acl_key_access.cpp): one
  // word per key spec, R (reads the value), W (inserts, updates or deletes), RW, or - (neither: EXISTS); keys past
  // the last word take the last. Empty: no key the ACL checks (none, or SPUBLISH's shard channels).
  std::string_view key_access;
  Handler handler;
  std::span<const SubcommandSpec> subcommands;  // a container's; empty: not a container
  CommandGroup group;                           // once in a table, never kOfFamily
};

// In the process's command table (command_table.hpp: the one the first Node installed):
// Looks a command up by name, in any case (Redis's names are case-insensitive ASCII); nullptr when unknown.
const CommandSpec* find_command(std::string_view name);
// The whole table, sorted by name (COMMAND COUNT/INFO/DOCS/LIST are generated from it).
std::span<const CommandSpec> all_commands();

}  // namespace lockcheck::mock
