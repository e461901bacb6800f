// The scripting family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp) and their ACL access, handler, a container's subcommands and a group
// other than the family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/commands/scripting/scripting_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {
namespace {

// Redis 7.0.15's subcommands of FUNCTION and SCRIPT (one the mock does not run still passes the check,
// then its handler answers as Redis does for an unsupported case).
constexpr SubcommandSpec kFunctionSubcommandSpecs[] = {
    {"delete", 3}, {"dump", 2}, {"flush", -2}, {"help", 2}, {"kill", 2}, {"list", -2}, {"load", -3},
    {"restore", -3}, {"stats", 2},
};
constexpr SubcommandSpec kScriptSubcommandSpecs[] = {
    {"debug", 3}, {"exists", -3}, {"flush", -2}, {"help", 2}, {"kill", 2}, {"load", 3},
};

}  // namespace

void register_scripting_commands(CommandTable& table) {
  table.add(CommandGroup::kScripting, {
      {"eval", -3, kNoScript, kScriptKeys, "RW", cmd::eval},
      {"eval_ro", -3, kNoScript, kScriptKeys, "R", cmd::eval_ro},
      {"evalsha", -3, kNoScript, kScriptKeys, "RW", cmd::evalsha},
      {"evalsha_ro", -3, kNoScript, kScriptKeys, "R", cmd::evalsha_ro},
      {"fcall", -3, kNoScript, kScriptKeys, "RW", cmd::fcall},
      {"fcall_ro", -3, kNoScript, kScriptKeys, "R", cmd::fcall_ro},
      {"function", -2, kNoScript, kNoKeys, "", cmd::function, kFunctionSubcommandSpecs},
      {"script", -2, kNoScript, kNoKeys, "", cmd::script, kScriptSubcommandSpecs},
  });
}

}  // namespace lockcheck::mock
